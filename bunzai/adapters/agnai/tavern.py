"""Agnai's "Tavern" export: a V2 card with the V1 fields copied at the top level.

`exportCharacter(char, 'tavern')` (common/characters.ts) writes `name, first_mes, scenario,
description (the rendered persona), personality: '', mes_example` at the root, then `spec`,
`spec_version` and `data`, whose `extensions` hold `depth_prompt` (Agnai's insert) and
`agnai: {voice, persona, appearance, json, sprite}`. It is told apart from SillyTavern's
JSON export (which also copies V1 fields to the root) by `data.extensions.agnai` and the
absence of SillyTavern's root keys (avatar, creatorcomment, talkativeness ...).
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.agnai import card_lists, import_losses, memory_entries
from bunzai.adapters.agnai.json_io import ENGINE, agnai_json_bytes, agnai_object, escrowed
from bunzai.adapters.agnai.root_fields import sync_root, with_root_first
from bunzai.adapters.common import card_fields
from bunzai.adapters.common.card_doc import CardShape, card_losses, read_card, write_card_data
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.registry import register
from bunzai.jsondoc.values import copied

FORMAT_ID = "agnai.tavern.json"
SHAPE = CardShape("Agnai Tavern export", "v2", card_fields.V2_FIELDS)
_SILLYTAVERN_ROOT = ("avatar", "creatorcomment", "talkativeness", "fav", "chat", "create_date")


def _data_template() -> dict:
    return {
        "name": "",
        "first_mes": "",
        "scenario": "",
        "description": "",
        "personality": "",
        "mes_example": "",
        "creator_notes": "",
        "system_prompt": "",
        "post_history_instructions": "",
        "alternate_greetings": [],
        "tags": [],
        "creator": "",
        "character_version": "",
        "extensions": {},
    }


def agnai_book_losses(piece: Any) -> list[Loss]:
    """What Agnai's import of a card's V2 book drops (characterBookToNative)."""
    if piece.body.book is None:
        return []
    entries = piece.body.book.model_dump(mode="json")["entries"]
    return memory_entries.entry_losses(
        entries, "/body/book/entries", memory_entries.FROM_CARD_BOOK, "Agnai's import of a card's book"
    )


class AgnaiTavernCard(Adapter):
    engine = ENGINE
    format_id = FORMAT_ID
    label = "Agnai Tavern export (V2 with V1 fields at the top level)"
    kinds = ("character",)
    extensions = (".json",)
    container = "text"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if (
            not isinstance(parsed, dict)
            or parsed.get("spec") != "chara_card_v2"
            or not isinstance(parsed.get("data"), dict)
        ):
            return 0.0
        extensions = parsed["data"].get("extensions")
        if not isinstance(extensions, dict) or not isinstance(extensions.get("agnai"), dict):
            return 0.0
        if "first_mes" not in parsed or any(key in parsed for key in _SILLYTAVERN_ROOT):
            return 0.0  # a plain V2 card (no V1 copies), or SillyTavern's export
        return 0.9

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        document = agnai_object(data, name, parsed, "an Agnai Tavern card")
        return read_card(document, name, SHAPE, {"format": FORMAT_ID, "document": document})

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        base = escrowed(piece, FORMAT_ID)
        document = copied(base) if base is not None else {"spec": "chara_card_v2", "spec_version": "2.0"}
        document["data"] = write_card_data(document.get("data"), _data_template(), piece, SHAPE, media)
        sync_root(document, document["data"])
        if base is None:
            document = with_root_first(document)
        losses = card_losses(piece, SHAPE, self.format_id) + card_lists.shrinking_lists(piece, "an Agnai Tavern card")
        if import_losses.crossing_into(piece, FORMAT_ID):
            losses += import_losses.personality_folded(piece) + agnai_book_losses(piece)
            losses += import_losses.rewritten_text(piece)
        return Encoded(agnai_json_bytes(document), losses)


register(AgnaiTavernCard())
