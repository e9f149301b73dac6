"""Agnai memory books: `{kind: "memory", name, description, entries: [...]}`.

Agnai exports a book as the stored document minus `_id` and `userId`, with a 2-space
indent (web/pages/Memory/Memory.tsx `encodeBook`); a character's `characterBook` has the
same shape. `scanDepth`, `tokenBudget`, `recursiveScanning` and `extensions` are the V2
book fields Agnai keeps unused. Agnai's import drops entries without text. An item of
`entries` that is not an object is no entry: reading warns, writing reports it left out.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.agnai import memory_entries
from bunzai.adapters.agnai.json_io import ENGINE, agnai_json_bytes, agnai_object, escrowed
from bunzai.adapters.common.book_losses import (
    BOOK_ASSETS_NOT_CARRIED,
    BOOK_PROFILES_NOT_CARRIED,
    BOOK_SETTING_NOT_CARRIED,
)
from bunzai.adapters.common.drift import MISSING, as_bool, as_count, as_object, as_str
from bunzai.adapters.common.fieldmap import put
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.registry import register
from bunzai.jsondoc.values import copied
from bunzai.model.lorebook import Lorebook

FORMAT_ID = "agnai.memory.json"
_SETTINGS = {
    "scan_depth": ("scanDepth", as_count),
    "token_budget": ("tokenBudget", as_count),
    "recursive_scanning": ("recursiveScanning", lambda raw: as_bool(raw, None)),
}
ENTRY_FIELDS = frozenset(memory_entries.FIELDS)
EMPTY_ENTRY_DROPPED = LossRule(
    r"/body/entries/\d+", "dropped", "agnai.entry.empty_dropped", "Agnai's import skips memory entries without text"
)


def read_memory_book(book: dict) -> dict:
    """A native memory book -> canonical CharacterBook fields (JSON form): name, description, settings ..."""
    natives = [e for e in book.get("entries") if isinstance(e, dict)] if isinstance(book.get("entries"), list) else []
    entries = []
    for entry, uid in zip(natives, memory_entries.uids_of(natives)):
        entries.append(memory_entries.read_entry(entry) | {"uid": uid})
    settings = {field: read(book.get(key, MISSING)) for field, (key, read) in _SETTINGS.items()}
    return {
        "name": as_str(book.get("name")),
        "description": as_str(book.get("description")),
        "settings": settings,
        "entries": entries,
        "extensions": copied(as_object(book.get("extensions"))),
    }


def write_memory_book(base: dict | None, canon: dict) -> dict:
    """The native book: `base` (escrowed) or a new one, with the canonical book written over it."""
    book = copied(base) if isinstance(base, dict) else {"kind": "memory", "name": "", "description": "", "entries": []}
    put(book, "name", canon["name"], as_str)
    put(book, "description", canon["description"], as_str)
    book["entries"] = memory_entries.write_entries(book.get("entries"), canon["entries"])
    for field, (key, read) in _SETTINGS.items():
        put(book, key, canon["settings"][field], read)
    if as_object(book.get("extensions")) != canon["extensions"]:
        book["extensions"] = copied(canon["extensions"])
    return book


def book_losses(canon: dict, pointer: str, where: str, carried: frozenset[str] = ENTRY_FIELDS) -> list[Loss]:
    """What a canonical book loses in an Agnai memory book (settings, entry fields)."""
    losses = [
        BOOK_SETTING_NOT_CARRIED.at(f"{pointer}/settings/{key}", f"{where} has no {key}")
        for key, value in canon["settings"].items()
        if key not in _SETTINGS and value is not None
    ]
    return losses + memory_entries.entry_losses(canon["entries"], f"{pointer}/entries", carried, where)


class AgnaiMemoryBook(Adapter):
    engine = ENGINE
    format_id = FORMAT_ID
    label = "Agnai memory book"
    kinds = ("lorebook",)
    extensions = (".json",)
    container = "text"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if isinstance(parsed, dict) and parsed.get("kind") == "memory" and isinstance(parsed.get("entries"), list):
            return 0.95
        return 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        document = agnai_object(data, name, parsed, "an Agnai memory book")
        book = read_memory_book(document)
        piece = read_piece(
            Lorebook,
            book["name"],
            name,
            "lorebook",
            {key: book[key] for key in ("description", "settings", "entries", "extensions")},
            {"format": FORMAT_ID, "document": document},
            "fix the value in Agnai and export the book again",
            mapped=True,
        )
        return Decoded([piece], warnings=memory_entries.stray_warnings(document.get("entries"), "the memory book's"))

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        canon = piece.body.model_dump(mode="json") | {"name": piece.name}
        base = escrowed(piece, FORMAT_ID)
        document = write_memory_book(base, canon)
        losses = memory_entries.unrolled_from_agnai(
            book_losses(canon, "/body", "an Agnai memory book"), piece, canon["entries"]
        )
        losses += memory_entries.stray_losses((base or {}).get("entries"), "/original/document/entries")
        for index, entry in enumerate(canon["entries"]):
            if not entry["content"] and (piece.original is None or piece.original.format != FORMAT_ID):
                losses.append(EMPTY_ENTRY_DROPPED.at(f"/body/entries/{index}"))
        if piece.assets:
            losses.append(BOOK_ASSETS_NOT_CARRIED.at("/assets", "an Agnai memory book carries no media"))
        if piece.profiles:
            losses.append(
                BOOK_PROFILES_NOT_CARRIED.at("/profiles", "an Agnai memory book has no per-platform profiles")
            )
        return Encoded(agnai_json_bytes(document), losses)


register(AgnaiMemoryBook())
