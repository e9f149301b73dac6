"""SillyTavern's JSON character export: a V2 card with the V1 copies at the top level.

SillyTavern writes it with a 4-space indent (`getCharaCardV2`, /export json). It is told
apart from a plain CCv2 file by those top-level copies (`avatar`, `creatorcomment`,
`first_mes` beside `spec`).
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.book_losses import book_folders_off
from bunzai.adapters.common.card_book import book_decorators_ignored
from bunzai.adapters.common.card_doc import card_losses, read_card
from bunzai.adapters.contract import Adapter, Decoded, Encoded, MediaSource
from bunzai.adapters.registry import register
from bunzai.adapters.sillytavern.card_doc_st import ST_V2, st_document
from bunzai.adapters.sillytavern.st_json import native_json_bytes, native_object

FORMAT_ID = "sillytavern.card.json"
_TOP_LEVEL_COPIES = ("avatar", "creatorcomment", "first_mes", "mes_example", "talkativeness")


class SillyTavernCardJson(Adapter):
    engine = "sillytavern"  # SillyTavern expands the macros in this file's text
    format_id = FORMAT_ID
    label = "SillyTavern JSON character card"
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
        return 0.85 if any(key in parsed for key in _TOP_LEVEL_COPIES) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        document = native_object(data, name, parsed, "a SillyTavern character card")
        return read_card(document, name, ST_V2, {"format": FORMAT_ID, "document": document})

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        original = piece.original
        base = original.document if original is not None and original.format == FORMAT_ID else None
        folders: list = []
        if base is None:  # a book written for RisuAI may hold folders: off, as SillyTavern has none
            piece, folders = book_folders_off(piece, "a SillyTavern card's book")
        document = st_document(base, piece, media)
        losses = card_losses(piece, ST_V2, self.format_id) + folders
        if base is None:  # text written for another platform may hold decorators
            losses += book_decorators_ignored(piece)
        return Encoded(native_json_bytes(document), losses)


register(SillyTavernCardJson())
