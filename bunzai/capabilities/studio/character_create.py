"""studio.character.create: a new character card from its name and any card fields (embedded book included),
with its portrait and additional media given in the one media reference form (@file, data: URI, asset, URL)."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.character_media import (
    PORTRAIT_DESCRIPTION,
    Collected,
    MediaItemInput,
    add_links,
    additional_media_field,
    portrait_ref,
)
from bunzai.capabilities.common.create_inputs import body_given, create_input_model, new_piece_json
from bunzai.capabilities.common.lore_entries import entry_warnings, fill_uids
from bunzai.capabilities.common.patching import propose, refuse
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import AssetRef

CharacterCreateInput = create_input_model(
    "character",
    "CharacterCreateInput",
    "A new character: `name`, an optional `id`, and any card fields (description, personality, scenario, "
    "first_message, alternate_greetings, tags, an embedded `book` ...), a `portrait` (@file, data: URI or stored "
    "asset) and `additional_media` with roles.",
    replace={
        "portrait": (str | AssetRef | None, Field(default=None, description=PORTRAIT_DESCRIPTION)),
        "additional_media": (list[MediaItemInput] | None, additional_media_field()),
    },
)


def complete_card(body: dict) -> list[str]:
    warnings = []
    if not body.get("first_message"):
        warnings.append("the character has no first message")
    book = body.get("book")
    if isinstance(book, dict):
        fill_uids(book.setdefault("entries", []))
        warnings += entry_warnings(book["entries"])
    return warnings


def preview_character_create(entity, data) -> Preview:
    if entity is not None:
        raise refuse(
            "studio.character.create makes a new piece; it takes no existing one",
            "a create starts from nothing: give no piece to work on, and name the new piece with --id",
        )
    collected = Collected()
    body = body_given(data, exclude=("portrait", "additional_media"))
    portrait = portrait_ref(data.portrait, collected)
    if portrait is not None:
        body["portrait"] = portrait.model_dump(mode="json")
    warnings = complete_card(body)
    doc = new_piece_json("character", data, body)
    if data.additional_media:
        doc["assets"] = add_links([], data.additional_media, collected)
    return Preview(entity=propose(doc), warnings=collected.warnings + warnings, attachments=collected.attachments)


CAPABILITY = Capability(
    id="studio.character.create",
    kind="character",
    domain="studio",
    mode="create",
    area="character",
    action="create",
    summary="Create a character card: name, description, personality, scenario, greetings, tags, embedded lorebook, "
    "portrait and additional media from files.",
    aliases=("new character", "create character", "new card", "make a character", "new bot"),
    input_model=CharacterCreateInput,
    preview=preview_character_create,
)
