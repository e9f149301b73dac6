"""character.metadata.update: tags, attribution, rating, content warnings and creator notes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.capabilities.character.target import VariantTarget, edit_character
from bunzai.capabilities.common.partial import merge_mapping, merge_partial
from bunzai.capabilities.common.patching import given
from bunzai.capabilities.contract import Capability, Preview


class MetadataInput(VariantTarget):
    tags: list[str] | None = Field(default=None, description="Replace the tags with this list.")
    add_tags: list[str] = Field(default_factory=list, description="Tags to add (kept once, in order).")
    remove_tags: list[str] = Field(default_factory=list, description="Tags to remove (exact text).")
    creator: str | None = Field(default=None, description="Who made the card. Omit to keep.")
    version: str | None = Field(default=None, description="The card's version string. Omit to keep.")
    rating: Literal["unrated", "sfw", "nsfw"] | None = Field(default=None, description="Content rating. Omit to keep.")
    content_warnings: list[str] | None = Field(default=None, description="Replace the content warnings with this list.")
    creator_notes: str | None = Field(
        default=None, description="Notes for people; never sent to the model. Omit to keep."
    )
    creator_notes_multilingual: dict[str, str | None] | None = Field(
        default=None, description="Creator notes by ISO 639-1 code, merged in; a code set to null is removed."
    )
    add_source: list[str] = Field(
        default_factory=list, description="Sources (ids or URLs) to append; sources are append-only."
    )


def preview(piece, inp: MetadataInput) -> Preview:
    patch = given(
        inp, exclude=("variant", "tags", "add_tags", "remove_tags", "creator_notes_multilingual", "add_source")
    )
    warnings: list[str] = []

    def edit(name, body):
        body = merge_partial(body, patch)
        tags = list(inp.tags) if inp.tags is not None else list(body.tags)
        if inp.tags is not None or inp.add_tags or inp.remove_tags:
            missing = [t for t in inp.remove_tags if t not in tags]
            if missing:
                warnings.append(f"not tagged {', '.join(missing)}; nothing to remove")
            tags = [t for t in dict.fromkeys(tags + list(inp.add_tags)) if t not in set(inp.remove_tags)]
            body = body.model_copy(update={"tags": tags})
        if inp.creator_notes_multilingual is not None:
            notes = merge_mapping(body.creator_notes_multilingual, inp.creator_notes_multilingual)
            body = body.model_copy(update={"creator_notes_multilingual": notes})
        if inp.add_source:
            body = body.model_copy(
                update={"source": list(body.source) + [s for s in inp.add_source if s not in body.source]}
            )
        if body.rating == "nsfw" and not body.content_warnings and ("rating" in patch or "content_warnings" in patch):
            warnings.append("rated nsfw with no content warnings; shelves show nothing before it opens")
        return name, body

    return Preview(edit_character(piece, inp.variant, edit), warnings=warnings)


CAPABILITY = Capability(
    id="character.metadata.update",
    kind="character",
    area="metadata",
    action="update",
    summary="Change a character's tags, creator, version, rating, content warnings, creator notes or sources.",
    aliases=("tags", "tag character", "creator notes", "rating", "nsfw", "content warning", "attribution", "author"),
    input_model=MetadataInput,
    preview=preview,
)
