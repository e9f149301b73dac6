"""Agnai's "Tavern" export: a V2 card with the V1 fields copied at the top level.

`exportCharacter(char, 'tavern')` (common/characters.ts) writes `name, first_mes, scenario,
description (the rendered persona), personality: '', mes_example` at the root, then `spec`,
`spec_version` and `data`, whose `extensions` hold `depth_prompt` (Agnai's insert) and
`agnai: {voice, persona, appearance, json, sprite}`. It is told apart from SillyTavern's
JSON export (which also copies V1 fields to the root) by `data.extensions.agnai` and the
absence of SillyTavern's root keys (avatar, creatorcomment, talkativeness ...), so a
written file always carries `extensions.agnai` (see `_mark_agnai`).
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.agnai import card_lists, import_losses, memory_entries
from bunzai.adapters.agnai.json_io import ENGINE, agnai_json_bytes, agnai_object, escrowed
from bunzai.adapters.agnai.persona import folded_text, render_persona, text_persona
from bunzai.adapters.agnai.root_fields import sync_root, with_root_first
from bunzai.adapters.common import card_fields
from bunzai.adapters.common.card_doc import (
    DERIVED_KEYS,
    CardShape,
    card_data,
    card_losses,
    read_card,
    write_card_data,
)
from bunzai.adapters.common.drift import as_str
from bunzai.adapters.common.losses import LossRule, superseded
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.registry import register
from bunzai.jsondoc.values import copied

FORMAT_ID = "agnai.tavern.json"
SHAPE = CardShape("Agnai Tavern export", "v2", card_fields.V2_FIELDS)
_SILLYTAVERN_ROOT = ("avatar", "creatorcomment", "talkativeness", "fav", "chat", "create_date")
SAVED_PERSONA_TO_TEXT = LossRule(
    "/body/extensions/agnai",
    "flattened",
    "agnai.saved_persona.to_text",
    "Agnai would take the saved persona and drop the personality; it is written as text joining both",
)
MARK_READ_AS_CARD = LossRule(
    "/body/extensions/agnai",
    "translated",
    "agnai.mark.read_as_card",
    "extensions.agnai only repeats the card's description and personality; it is read as the card, not app data",
)


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


def _derived_mark(data: dict) -> dict:
    """The `extensions.agnai` bunzai writes for a card that has none: it repeats the card's text."""
    return {"persona": text_persona(folded_text(as_str(data.get("description")), as_str(data.get("personality"))))}


def _derived_keys(data: dict) -> dict[str, str]:
    """`/extensions/agnai` when it is the mark a writer derives (no app data: see card_doc.DERIVED_KEYS)."""
    extensions = data.get("extensions")
    if isinstance(extensions, dict) and extensions.get("agnai") == _derived_mark(data):
        return {
            "/extensions/agnai": "the mark only repeats the description and personality, from which Agnai's "
            "import makes the same persona"
        }
    return {}


def _mark_agnai(data: dict, piece: Any) -> list[Loss]:
    """Give `data.extensions.agnai` a persona Agnai's import turns into what the card says.

    Agnai takes a saved persona as it is while it renders to the description, and else joins
    description and personality into a text persona. A missing mark gets that text; a
    current persona beside a personality (which Agnai would then drop) becomes that text.
    """
    if not isinstance(data.get("extensions"), dict):
        data["extensions"] = {}
    agnai = data["extensions"].get("agnai")
    if not isinstance(agnai, dict):
        data["extensions"]["agnai"] = _derived_mark(data)
        return []
    had_persona = "persona" in agnai
    current = had_persona and render_persona(piece.name, agnai["persona"]) == as_str(data.get("description"))
    if had_persona and not (current and as_str(data.get("personality"))):
        return []
    agnai["persona"] = _derived_mark(data)["persona"]
    if "agnai" not in piece.body.extensions:
        return []
    why = None if had_persona else "the mark had no persona: the text Agnai's import would make is added"
    # a mark left holding only that text reads back as no app data at all
    at = "/body/extensions/agnai" + ("" if agnai == _derived_mark(data) else "/persona")
    return [SAVED_PERSONA_TO_TEXT.at(at, why)]


def _carried_mark_losses(piece: Any, data: dict) -> list[Loss]:
    """A mark the piece holds as app data that only repeats the card reads back as no app data."""
    if piece.body.extensions.get("agnai") == _derived_mark(data):
        return [MARK_READ_AS_CARD.at("/body/extensions/agnai")]
    return []


def agnai_book_losses(piece: Any) -> list[Loss]:
    """What Agnai's import of a card's V2 book drops (characterBookToNative); for a book read from
    another Agnai file, not what Agnai's search already did not do there (unrolled_from_agnai)."""
    if piece.body.book is None:
        return []
    entries = piece.body.book.model_dump(mode="json")["entries"]
    losses = memory_entries.entry_losses(
        entries, "/body/book/entries", memory_entries.FROM_CARD_BOOK, "Agnai's import of a card's book"
    )
    return memory_entries.unrolled_from_agnai(losses, piece, entries)


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
        decoded = read_card(document, name, SHAPE, {"format": FORMAT_ID, "document": document})
        extensions = decoded.pieces[0].body.extensions
        if extensions.get("agnai") == _derived_mark(card_data(document)):
            del extensions["agnai"]  # the mark a writer adds to a card that has none: no app data
        return decoded

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        base = escrowed(piece, FORMAT_ID)
        document = copied(base) if base is not None else {"spec": "chara_card_v2", "spec_version": "2.0"}
        document["data"] = write_card_data(document.get("data"), _data_template(), piece, SHAPE, media)
        losses = _mark_agnai(document["data"], piece) + _carried_mark_losses(piece, document["data"])
        sync_root(document, document["data"])
        if base is None:
            document = with_root_first(document)
        losses += card_losses(piece, SHAPE, self.format_id) + card_lists.shrinking_lists(piece, "an Agnai Tavern card")
        if import_losses.crossing_into(piece, FORMAT_ID):
            book = agnai_book_losses(piece)  # what Agnai's import does to an entry's position says more
            losses = superseded(losses, book) + import_losses.personality_folded(piece) + book
            losses += import_losses.rewritten_text(piece) + import_losses.st_regex_not_run(piece)
        return Encoded(agnai_json_bytes(document), losses)


register(AgnaiTavernCard())
DERIVED_KEYS[FORMAT_ID] = _derived_keys
