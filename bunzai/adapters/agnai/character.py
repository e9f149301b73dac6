"""Agnai's native character export ("Agnaistic" JSON): the stored character minus `_id`.

`{kind: "character", name, description (creator notes), persona, greeting, scenario,
sampleChat, ... characterBook?, extensions?}` (common/types/library.ts), written with a
2-space indent by web/pages/Character/DownloadModal.tsx. Agnai reads a file as native when
`kind` is "character" or when it has name, persona, greeting, scenario and sampleChat. The
embedded `characterBook` is a memory book and reads as a linked lorebook piece too.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bunzai.adapters.agnai import card_lists, character_fields, import_losses, memory_entries
from bunzai.adapters.agnai.json_io import ENGINE, agnai_json_bytes, agnai_object, escrowed
from bunzai.adapters.agnai.memory_book import FORMAT_ID as BOOK_FORMAT, book_losses, read_memory_book, write_memory_book
from bunzai.adapters.agnai.persona import folded_text, is_structured, render_persona
from bunzai.adapters.common.card_doc import CARD_LINKS_NOT_CARRIED, CardShape, card_losses
from bunzai.adapters.common.drift import as_object, as_str
from bunzai.adapters.common.fieldmap import put
from bunzai.adapters.common.losses import LossRule, superseded
from bunzai.adapters.common.naming import linked_id, piece_id_for
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource, linked_name
from bunzai.adapters.registry import register
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.model.character import Character
from bunzai.model.lorebook import Lorebook

FORMAT_ID = "agnai.character.json"
_NATIVE_KEYS = ("name", "persona", "greeting", "scenario", "sampleChat")
# personality is listed as carried: it is folded into the persona, reported on its own.
SHAPE = CardShape(
    "Agnai character",
    "agnai",
    frozenset(
        {
            "description",
            "personality",
            "scenario",
            "first_message",
            "alternate_greetings",
            "example_messages",
            "system_prompt",
            "post_history_instructions",
            "creator_notes",
            "tags",
            "creator",
            "version",
            "creation_date",
            "modification_date",
        }
    ),
)
PERSONA_TO_TEXT = LossRule(
    "/body/description",
    "flattened",
    "agnai.persona.to_text",
    "the description (with any personality) no longer renders Agnai's structured persona (its attributes); "
    "it is written as a text persona",
)
DEPTH_PROMPT_ROLE = LossRule(
    "/body/depth_prompt/role", "dropped", "agnai.depth_prompt.role", "Agnai's depth insert has no role"
)


def is_native_character(parsed: Any) -> bool:
    """Agnai's own test (port.ts getImportFormat)."""
    return isinstance(parsed, dict) and (parsed.get("kind") == "character" or all(k in parsed for k in _NATIVE_KEYS))


def _template() -> dict:
    return {
        "kind": "character",
        "name": "",
        "description": "",
        "persona": {"kind": "text", "attributes": {"text": [""]}},
        "greeting": "",
        "scenario": "",
        "sampleChat": "",
        "tags": [],
    }


def _book_id(char_id: str, book_name: str) -> str:
    return linked_id(char_id, "book", book_name)


class AgnaiCharacter(Adapter):
    engine = ENGINE
    format_id = FORMAT_ID
    label = "Agnai character (native JSON)"
    kinds = ("character",)
    extensions = (".json",)
    container = "text"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not is_native_character(parsed) or "spec" in parsed:
            return 0.0
        return 0.95 if parsed.get("kind") == "character" else 0.8

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        document = agnai_object(data, name, parsed, "an Agnai character")
        char_name = as_str(document.get("name"))
        char_id = piece_id_for(char_name, name, "character")
        body = character_fields.read_body(document)
        raw_book = document.get("characterBook")
        book = read_memory_book(raw_book) if isinstance(raw_book, dict) else None
        body["book"] = book
        body["links"] = {
            "lorebooks": [_book_id(char_id, book["name"])] if book else [],
            "regex": [],
            "quickreplies": [],
        }
        try:
            pieces = [
                Character.model_validate(
                    {
                        "id": char_id,
                        "name": char_name,
                        "body": body,
                        "original": {"format": FORMAT_ID, "document": document},
                    }
                )
            ]
            if book is not None:
                pieces.append(
                    Lorebook.model_validate(
                        {
                            "id": _book_id(char_id, book["name"]),
                            "name": book["name"] or f"{char_name}'s Lorebook",
                            "body": {key: book[key] for key in ("description", "settings", "entries", "extensions")},
                            "original": {"format": BOOK_FORMAT, "document": copied(raw_book)},
                        }
                    )
                )
        except ValidationError as error:
            raise BunzaiError(
                "corrupt_file",
                f"{name or 'the character'} holds values bunzai cannot read: "
                f"{error.errors()[0]['msg']} at {'/'.join(map(str, error.errors()[0]['loc']))}",
                "fix the value in Agnai and export the character again",
            ) from None
        where = "the character's memory book"
        return Decoded(pieces, warnings=memory_entries.stray_warnings(as_object(raw_book).get("entries"), where))

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        base = escrowed(piece, FORMAT_ID)
        document = copied(base) if base is not None else _template()
        body = piece.body.model_dump(mode="json")
        losses = self._persona_losses(document, piece)
        put(document, "name", piece.name, as_str)
        character_fields.write_body(document, piece.name, body)
        if body["book"] is not None:
            strays = as_object(document.get("characterBook")).get("entries")
            losses += memory_entries.stray_losses(strays, "/original/document/characterBook/entries")
            document["characterBook"] = write_memory_book(document.get("characterBook"), body["book"])
        else:
            document.pop("characterBook", None)
        return Encoded(agnai_json_bytes(document), losses + character_losses(piece))

    @staticmethod
    def _persona_losses(document: dict, piece: Any) -> list[Loss]:
        """A structured persona the written text no longer renders: an edited description, or
        a personality folded into it, both replace the attributes with a text persona."""
        persona = document.get("persona")
        text = folded_text(piece.body.description, piece.body.personality)
        if is_structured(persona) and render_persona(piece.name, persona) != text:
            return [PERSONA_TO_TEXT.at("/body/description")]
        return []


def character_losses(piece: Any) -> list[Loss]:
    """What an Agnai native character cannot hold, and what Agnai rewrites on import."""
    body = piece.body
    losses = [
        loss for loss in card_losses(piece, SHAPE, FORMAT_ID) if not loss.pointer.startswith("/body/links/lorebooks")
    ]
    losses += import_losses.personality_folded(piece)
    if body.personality:
        # the written description holds both texts: a second account, at the field that changes
        why = "the personality is appended to the description (Agnai's persona text)"
        losses.append(import_losses.PERSONALITY_FOLDED.at("/body/description", why))
    losses += card_lists.shrinking_lists(piece, "an Agnai character", None)
    if import_losses.crossing_into(piece, FORMAT_ID):
        losses += import_losses.rewritten_text(piece) + import_losses.st_regex_not_run(piece)
    if body.depth_prompt.role != "system":
        losses.append(DEPTH_PROMPT_ROLE.at("/body/depth_prompt/role"))
    own_book = [_book_id(piece.id, body.book.name)] if body.book is not None else []
    links = body.links.lorebooks
    # the memory book's own lorebook, whatever id the studio gave it (an import's -2), by its name
    named_own = body.book is not None and len(links) == 1 and linked_name("lorebook", links[0]) == body.book.name
    if links != own_book and not named_own:
        why = "an Agnai character binds no lorebook beside its own memory book"
        losses.append(CARD_LINKS_NOT_CARRIED.at("/body/links/lorebooks", why))
    if body.book is not None:
        canon = body.book.model_dump(mode="json")
        book = memory_entries.unrolled_from_agnai(
            book_losses(canon, "/body/book", "an Agnai memory book"), piece, canon["entries"]
        )
        book = [loss for loss in book if loss.code != "book.settings.not_carried"]  # card_losses names those
        # the memory book's own account of an entry's position replaces the card book's
        losses = superseded(losses, book) + book
    return losses


register(AgnaiCharacter())
