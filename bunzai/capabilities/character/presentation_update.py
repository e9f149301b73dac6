"""character.presentation.update: how the card is shown to people (never sent to a model)."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.character_media import IMAGE_DESCRIPTION, Collected, portrait_ref
from bunzai.capabilities.common.partial import merge_mapping, merge_partial
from bunzai.capabilities.common.patching import given
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import AssetRef, Model, PresentationLink
from bunzai.model.character import CharacterBody


class PresentationInput(Model):
    palette: dict[str, str | None] | None = Field(
        default=None, description="Named colours merged in, e.g. {'name': '#c0392b'}; a name set to null is removed."
    )
    background: str | AssetRef | None = Field(
        default=None, description="Background image. " + IMAGE_DESCRIPTION + " null removes it. Omit to keep."
    )
    field_order: list[str] | None = Field(default=None, description="Body field names in the order a page shows them.")
    spoilers: list[str] | None = Field(default=None, description="Body field names hidden behind a spoiler toggle.")
    links: list[PresentationLink] | None = Field(default=None, description="Replace the links shown with the card.")


def preview(piece, inp: PresentationInput) -> Preview:
    current = piece.body.presentation
    patch = given(inp, exclude=("palette", "background"))
    collected = Collected()
    if "background" in inp.model_fields_set:
        ref = portrait_ref(inp.background, collected, "background")
        patch["background"] = ref.model_dump(mode="json") if ref else None
    new = merge_partial(current, patch)
    if inp.palette is not None:
        new = new.model_copy(update={"palette": merge_mapping(current.palette, inp.palette)})
    unknown = sorted({f for f in new.field_order + new.spoilers if f not in CharacterBody.model_fields})
    warnings = [f"not character fields, so a page ignores them: {', '.join(unknown)}"] if unknown else []
    body = piece.body.model_copy(update={"presentation": new})
    return Preview(
        piece.model_copy(update={"body": body}),
        warnings=collected.warnings + warnings,
        attachments=collected.attachments,
    )


CAPABILITY = Capability(
    id="character.presentation.update",
    kind="character",
    area="presentation",
    action="update",
    summary="Change how a character's page looks: palette colours, background, field order, spoilers and links.",
    aliases=("colors", "colours", "palette", "background image", "spoiler", "card page layout"),
    input_model=PresentationInput,
    preview=preview,
)
