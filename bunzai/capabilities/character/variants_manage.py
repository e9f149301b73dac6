"""character.variants.manage: add, remove, rename a variant, change its mode or inheritance.

To edit what a variant says (its greetings, description ...), run the other character
capabilities with `"variant": "<id>"`: they route the edit into that variant's overrides.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.capabilities.contract import Capability, Preview
from bunzai.errors import BunzaiError
from bunzai.model.base import Model, SafeId
from bunzai.model.character import CharacterVariant, VariantField, VariantOverrides


class VariantsInput(Model):
    action: Literal["add", "remove", "rename", "mode", "inherit", "unset"] = Field(
        description="add a variant; remove it; rename its label; set its mode; set what a standalone variant "
        "inherits; unset overrides (the variant falls back to the base / to nothing)."
    )
    id: SafeId = Field(description="The variant's id.")
    name: str | None = Field(default=None, description="Label shown to people (add, rename).")
    mode: Literal["overlay", "standalone"] | None = Field(
        default=None,
        description="overlay: base + overrides; standalone: only inherited fields + overrides (add, mode).",
    )
    inherit: list[VariantField] | None = Field(
        default=None, description="Fields a standalone variant takes from the base (add, mode, inherit)."
    )
    overrides: VariantOverrides | None = Field(default=None, description="Fields the new variant sets (add).")
    fields: list[str] = Field(default_factory=list, description="Override fields to unset (unset).")
    at: int | None = Field(
        default=None, ge=0, description="Where a new variant goes in the list; default: the end (add)."
    )


def preview(piece, inp: VariantsInput) -> Preview:
    variants = [v.model_dump(mode="json") for v in piece.body.variants]
    index = next((i for i, v in enumerate(variants) if v["id"] == inp.id), None)
    warnings: list[str] = []
    if inp.action == "add":
        if index is not None:
            raise BunzaiError(
                "invalid_input",
                f"input field 'id': {piece.id} already has a variant {inp.id!r}",
                "choose another id, or edit that variant",
            )
        mode = inp.mode or "overlay"
        new = {
            "id": inp.id,
            "name": inp.name or "",
            "mode": mode,
            "inherit": inp.inherit or [],
            "overrides": inp.overrides.model_dump(mode="json") if inp.overrides else {},
        }
        if mode == "standalone" and not inp.inherit:
            warnings.append(
                "a standalone variant with nothing inherited starts with every field empty but its overrides"
            )
        at = len(variants) if inp.at is None else min(inp.at, len(variants))
        variants.insert(at, CharacterVariant.model_validate(new).model_dump(mode="json"))
    else:
        if index is None:
            known = ", ".join(v["id"] for v in variants) or "none"
            raise BunzaiError(
                "invalid_input",
                f"input field 'id': {piece.id} has no variant {inp.id!r} (variants: {known})",
                "check the id, or add the variant first (action add)",
            )
        variant = variants[index]
        if inp.action == "remove":
            del variants[index]
        elif inp.action == "rename":
            if inp.name is None:
                raise BunzaiError(
                    "invalid_input", "input field 'name': rename needs the new label", 'e.g. "name": "Winter outfit"'
                )
            variant["name"] = inp.name
        elif inp.action == "mode":
            if inp.mode is None:
                raise BunzaiError(
                    "invalid_input",
                    "input field 'mode': give overlay or standalone",
                    "overlay lays the overrides over the base; standalone starts from what it inherits",
                )
            variant["mode"] = inp.mode
            variant["inherit"] = (inp.inherit or []) if inp.mode == "standalone" else []
            if inp.mode == "standalone" and not inp.inherit:
                warnings.append(
                    "standalone with nothing inherited: every field not overridden is now empty in this variant"
                )
        elif inp.action == "inherit":
            if variant["mode"] != "standalone":
                raise BunzaiError(
                    "invalid_input",
                    "input field 'inherit': an overlay variant inherits everything it does not override",
                    "switch it to standalone first (action mode)",
                )
            variant["inherit"] = inp.inherit or []
        elif inp.action == "unset":
            unknown = [f for f in inp.fields if f not in VariantOverrides.model_fields]
            if unknown:
                raise BunzaiError(
                    "invalid_input",
                    f"input field 'fields': not variant fields: {', '.join(unknown)}",
                    "variant fields: " + ", ".join(VariantOverrides.model_fields),
                )
            for field in inp.fields:
                variant["overrides"][field] = None
    body = piece.body.model_copy(update={"variants": [CharacterVariant.model_validate(v) for v in variants]})
    return Preview(piece.model_copy(update={"body": body}), warnings=warnings)


CAPABILITY = Capability(
    id="character.variants.manage",
    kind="character",
    area="variants",
    action="manage",
    summary=(
        "Add, remove or rename a character variant (outfit, age, AU), set its mode or what it inherits, "
        "unset overrides."
    ),
    aliases=("add variant", "outfit", "alternate version", "alternate universe", "variant inheritance"),
    input_model=VariantsInput,
    preview=preview,
)
