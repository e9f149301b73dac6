"""Editing a character, or one of its named variants, through the same edit function.

Character capabilities take an optional `variant` (a variant id). Without it the edit
applies to the base card. With it, the edit runs on the variant as resolved (base +
overrides, or inherited fields + overrides), and every field the edit changed becomes an
override of that variant (a standalone variant stops inheriting a field it now sets).
Fields a variant cannot vary (settings, rating, scripts ...) are refused for a variant.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import Field

from bunzai.errors import BunzaiError
from bunzai.model.base import Model
from bunzai.model.character import CharacterBody, VariantOverrides

VARIANT_HELP = (
    "Id of a named variant of the character: the edit goes into that variant's overrides "
    "(the base card is untouched). Leave out to edit the base card."
)


class VariantTarget(Model):
    """Input mix-in: the optional variant an edit targets."""

    variant: str | None = Field(default=None, description=VARIANT_HELP)


Edit = Callable[[str, object], tuple[str, object]]  # (name, CharacterBody) -> (name, CharacterBody)


def edit_character(piece, variant: str | None, edit: Edit):
    """The character with `edit` applied to its base card or to the named variant."""
    if variant is None:
        name, body = edit(piece.name, piece.body.model_copy(deep=True))
        return piece.model_copy(update={"name": name, "body": body})
    variants = list(piece.body.variants)
    index = next((i for i, v in enumerate(variants) if v.id == variant), None)
    if index is None:
        known = ", ".join(v.id for v in variants) or "none"
        raise BunzaiError(
            "invalid_input",
            f"input field 'variant': {piece.id} has no variant {variant!r} (variants: {known})",
            "add it first with character.variants.manage",
        )
    chosen = variants[index]
    old_name, old_body = chosen.resolve(piece.name, piece.body)
    new_name, new_body = edit(old_name, old_body.model_copy(deep=True))
    overrides = chosen.overrides.model_dump(mode="json", exclude_none=True)
    inherit = list(chosen.inherit)
    if new_name != old_name:
        overrides["name"] = new_name
    varying = set(VariantOverrides.model_fields) - {"name"}
    for field in CharacterBody.model_fields:
        old, new = _plain(getattr(old_body, field)), _plain(getattr(new_body, field))
        if old == new:
            continue
        if field not in varying:
            raise BunzaiError(
                "invalid_input",
                f"a variant cannot vary {field!r}; it belongs to the whole character",
                "leave out `variant` to edit the base card",
            )
        overrides[field] = new
        if field in inherit:
            inherit.remove(field)
    variants[index] = chosen.model_validate(
        chosen.model_dump(mode="json") | {"overrides": overrides, "inherit": inherit}
    )
    body = piece.body.model_copy(update={"variants": variants})
    return piece.model_copy(update={"body": body})


def _plain(value):
    return value.model_dump(mode="json") if hasattr(value, "model_dump") else value


def mentions(text: str, word: str) -> bool:
    """Whether `word` appears in `text` as a whole word (case-insensitive). Only ASCII letters,
    digits and `_` join words, as in SillyTavern's whole-word keys: Chinese, Japanese and Thai
    put no spaces between words, and Korean attaches its particles ('민수가')."""
    import re

    return bool(word) and re.search(rf"(?<![0-9A-Z_a-z]){re.escape(word)}(?![0-9A-Z_a-z])", text, re.I) is not None
