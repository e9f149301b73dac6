"""studio.character.create: a new character card from its name and any card fields (embedded book included)."""

from __future__ import annotations

from bunzai.capabilities.common.create_inputs import create_input_model
from bunzai.capabilities.common.create_preview import create_preview
from bunzai.capabilities.common.lore_entries import entry_warnings, fill_uids
from bunzai.capabilities.contract import Capability

CharacterCreateInput = create_input_model(
    "character", "CharacterCreateInput",
    "A new character: `name`, an optional `id`, and any card fields (description, personality, scenario, "
    "first_message, alternate_greetings, tags, an embedded `book` ...).",
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


CAPABILITY = Capability(
    id="studio.character.create", kind="character", domain="studio", mode="create", area="character", action="create",
    summary="Create a character card: name, description, personality, scenario, greetings, tags, embedded lorebook.",
    aliases=("new character", "create character", "new card", "make a character", "new bot"),
    input_model=CharacterCreateInput, preview=create_preview("character", complete_card),
)
