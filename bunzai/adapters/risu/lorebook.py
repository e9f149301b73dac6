"""RisuAI's lorebook export `{type: "risu", ver: 1, data: [loreBook ...]}` <-> a canonical lorebook.

RisuAI writes the export as compact JSON (`JSON.stringify` without indent) and reads any
object with `type: "risu"` and a `data` list. Entries map as lore_entries says; the
document's other keys stay in the escrow and are written back on a same-format write.
"""

from __future__ import annotations

import json
from typing import Any

from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.registry import register
from bunzai.adapters.risu.lore_entries import entry_losses, key_warnings, read_entry, write_entry
from bunzai.adapters.risu.shared_losses import ASSETS, NAME_FILE_NAME, PROFILES
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.model.lorebook import LoreEntry, Lorebook

FORMAT_ID = "risu.lorebook"
BOOK_SETTINGS = LossRule(
    "/body/settings/[a-z_]+",
    "dropped",
    "risu.book.settings",
    "a RisuAI lore list has no book settings (they are chat settings in RisuAI)",
)
BOOK_DESCRIPTION = LossRule(
    "/body/description", "dropped", "risu.book.description", "a RisuAI lore list has no description"
)
BOOK_EXTENSIONS = LossRule(
    "/body/extensions", "dropped", "risu.book.extensions", "a RisuAI lore list has no book-level app data"
)


def is_risu_lorebook(parsed: Any) -> bool:
    return isinstance(parsed, dict) and parsed.get("type") == "risu" and isinstance(parsed.get("data"), list)


def read_entries(raw: Any, warnings: list[str] | None = None) -> list[dict]:
    """Canonical entries of a native lore list; with `warnings`, what RisuAI's key matching
    does that the reading cannot say (regex keys it never matches ...) is added to it."""
    items = raw if isinstance(raw, list) else []
    if warnings is not None:
        warnings += [said for index, item in enumerate(items) for said in key_warnings(item, index)]
    return [read_entry(item, index) for index, item in enumerate(items)]


def write_entries(base: Any, entries: list[dict]) -> list[dict]:
    old = base if isinstance(base, list) else []
    return [write_entry(old[index] if index < len(old) else None, entry, index) for index, entry in enumerate(entries)]


def book_losses(body: dict, prefix: str, written: list[dict] | None = None) -> list[Loss]:
    """What RisuAI's lore list cannot carry of a canonical lorebook body (`prefix` points at the body);
    `written` is the native lore list written for it, when the caller has it."""
    default = LoreEntry().model_dump(mode="json")
    losses = []
    for index, entry in enumerate(body["entries"]):
        native = written[index] if written is not None and index < len(written) else None
        losses += entry_losses(entry, index, f"{prefix}/entries", default, native)
    for key, value in body["settings"].items():
        if value is not None:
            losses.append(BOOK_SETTINGS.at(f"{prefix}/settings/{key}"))
    if body["description"]:
        losses.append(BOOK_DESCRIPTION.at(f"{prefix}/description"))
    if body["extensions"]:
        losses.append(BOOK_EXTENSIONS.at(f"{prefix}/extensions"))
    return losses


class RisuLorebook(Adapter):
    format_id = FORMAT_ID
    label = "RisuAI lorebook export"
    kinds = ("lorebook",)
    extensions = (".json", ".lorebook")
    container = "text"
    engine = "risuai"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 0.9 if is_risu_lorebook(parsed) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        if not is_risu_lorebook(parsed):
            raise BunzaiError(
                "unsupported",
                f"{name or 'the file'} is not a RisuAI lorebook export",
                'a RisuAI lorebook is {"type": "risu", "data": [...]}',
            )
        title = name.rsplit("/", 1)[-1].rsplit(".", 1)[0] if name else "RisuAI lorebook"
        warnings: list[str] = []
        piece = read_piece(
            Lorebook,
            title,
            name,
            "lorebook",
            {"entries": read_entries(parsed["data"], warnings)},
            {"format": FORMAT_ID, "document": parsed},  # the read's own (see Adapter.read)
            "fix the entry in RisuAI",
            mapped=True,
        )
        return Decoded([piece], warnings=warnings)

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        original = piece.original
        own = original is not None and original.format == FORMAT_ID and is_risu_lorebook(original.document)
        document = copied(original.document) if own else {"type": "risu", "ver": 1, "data": []}
        body = piece.body.model_dump(mode="json")
        document["data"] = write_entries(document["data"] if own else None, body["entries"])
        losses = book_losses(body, "/body", document["data"])
        if piece.name != piece.id:
            losses.append(NAME_FILE_NAME.at("/name"))
        if piece.assets:
            losses.append(ASSETS.at("/assets", "a RisuAI lorebook export carries no media"))
        if piece.profiles:
            losses.append(PROFILES.at("/profiles", "a RisuAI lorebook export has no per-platform profiles"))
        return Encoded(json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), losses)


register(RisuLorebook())
