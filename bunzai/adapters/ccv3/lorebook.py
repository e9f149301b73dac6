"""The spec's standalone lorebook file: `{"spec": "lorebook_v3", "data": <book>}`.

The book has the CCv3 `character_book` shape; SillyTavern's entry extensions are read as
on a card (see bunzai.adapters.common.card_book).
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.ccv3.json_io import escrowed, json_bytes, json_object
from bunzai.adapters.common import card_book
from bunzai.adapters.common.book_losses import (
    BOOK_ASSETS_NOT_CARRIED,
    BOOK_PROFILES_NOT_CARRIED,
    BOOK_SETTING_NOT_CARRIED,
)
from bunzai.adapters.common.card_doc import LOREBOOK_V3_FORMAT
from bunzai.adapters.common.drift import as_object
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.contract import Adapter, Decoded, Encoded, MediaSource
from bunzai.adapters.registry import register
from bunzai.jsondoc.values import copied
from bunzai.model.lorebook import Lorebook


class LorebookV3Json(Adapter):
    format_id = LOREBOOK_V3_FORMAT
    label = "Lorebook V3 (JSON)"
    kinds = ("lorebook",)
    extensions = (".json",)
    container = "text"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 0.9 if isinstance(parsed, dict) and parsed.get("spec") == "lorebook_v3" else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        document = json_object(data, name, parsed, self.label)
        book, warnings = card_book.read_book(as_object(document.get("data")))
        piece = read_piece(
            Lorebook,
            book["name"],
            name,
            "lorebook",
            {key: book[key] for key in ("description", "settings", "entries", "extensions")},
            {"format": self.format_id, "document": document},
            "fix the value in the app that made the book",
            mapped=True,  # card_book's mapping, as a card's own book
        )
        return Decoded([piece], [], warnings)

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        base = escrowed(piece, self.format_id)
        document = copied(base) if base is not None else {"spec": "lorebook_v3", "data": {}}
        canon = piece.body.model_dump(mode="json") | {"name": piece.name}
        prior = document.get("data") if isinstance(document.get("data"), dict) else None
        document["data"] = card_book.write_book(prior, canon, "spec", True, base is not None)
        losses = [
            BOOK_SETTING_NOT_CARRIED.at(f"/body/settings/{key}", f"a lorebook_v3 book has no {key}")
            for key in card_book.settings_not_carried(canon)
        ]
        if piece.original is None or piece.original.format != self.format_id:
            losses += card_book.positions_flattened(canon, "/body")
        if piece.assets:
            losses.append(BOOK_ASSETS_NOT_CARRIED.at("/assets", "a lorebook_v3 file carries no media"))
        if piece.profiles:
            losses.append(BOOK_PROFILES_NOT_CARRIED.at("/profiles", "a lorebook_v3 file has no per-platform profiles"))
        return Encoded(json_bytes(document), losses)


register(LorebookV3Json())
