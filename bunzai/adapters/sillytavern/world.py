"""SillyTavern world info (`worlds/<name>.json`) <-> a canonical lorebook.

The file is `{"entries": {"<uid>": Entry}, "originalData"?: V2Book, ...}`, named by its
file stem. Entries map key by key (world_entry.py); everything else at the root
(`originalData` included) and every unknown entry key stays in the escrow and is written
back when the piece returns to this format.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


from bunzai.adapters.common.book_losses import decorators_ignored, risu_folder_places, risu_folders_marked
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.contract import Adapter, Decoded, Encoded, MediaSource
from bunzai.adapters.registry import register
from bunzai.adapters.common.fieldmap import int_reader, decode_fields, encode_fields
from bunzai.adapters.common.fieldmap import decimal_text as _decimal
from bunzai.adapters.common.losses import LossRule, readback_losses
from bunzai.adapters.sillytavern.st_json import file_stem, native_json_bytes, native_object
from bunzai.adapters.sillytavern.world_entry import ENTRY_FIELDS, fresh_entry_extras
from bunzai.errors import BunzaiError
from bunzai.model import dump_piece
from bunzai.model.lorebook import Lorebook

FORMAT_ID = "sillytavern.world"

LOSS_RULES = (
    LossRule(
        "/name",
        "flattened",
        "world.name.file_stem",
        "a SillyTavern world is named by its file name, and the file is written as <id>.json",
    ),
    LossRule("/body/description", "dropped", "book.description.dropped", "a SillyTavern world file has no description"),
    LossRule(
        "/body/settings",
        "dropped",
        "book.settings.dropped",
        "SillyTavern keeps scan depth, budget, recursion and matching settings globally (settings.json), "
        "not in the world file",
    ),
    LossRule(
        "/body/extensions",
        "dropped",
        "book.extensions.dropped",
        "a SillyTavern world file has no book-level extensions",
    ),
    LossRule(
        r"/body/entries/\d+/priority",
        "dropped",
        "book.entry.priority.dropped",
        "SillyTavern entries have no budget priority; `order` alone ranks them",
    ),
    LossRule(
        r"/body/entries/\d+/uid",
        "translated",
        "world.entry.uid.renumbered",
        "SillyTavern entry uids are integers and key the entries: other uids, and a new entry's uid that is "
        "already a key of the file, get the lowest free number",
    ),
    LossRule(
        r"/body/entries/\d+/(?:keys|secondary_keys)",
        "translated",
        "world.key.reads_differently",
        "SillyTavern reads a key written as /pattern/flags as a regex and anything else as text: a literal key "
        "of that shape becomes a regex, and a regex with flags outside gimsuy, a repeated flag, an empty pattern or "
        "a pattern JavaScript rejects becomes text",
    ),
    LossRule(
        r"/body/entries/\d+/group/names",
        "flattened",
        "world.entry.group.comma_list",
        "SillyTavern stores inclusion groups as one comma list, so names holding commas or edge spaces split",
    ),
)
FALLBACK = LossRule("", "dropped", "world.not_carried", "a SillyTavern world does not carry this value as it is")


class SillyTavernWorld(Adapter):
    engine = "sillytavern"  # SillyTavern expands the macros in this file's text
    format_id = FORMAT_ID
    label = "SillyTavern world info"
    kinds = ("lorebook",)
    extensions = (".json",)
    container = "text"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not isinstance(parsed, dict) or not isinstance(parsed.get("entries"), dict):
            return 0.0
        entries = list(parsed["entries"].values())
        if not all(isinstance(entry, dict) for entry in entries):
            return 0.0
        if not entries or any("key" in entry or "uid" in entry for entry in entries):
            return 0.9
        return 0.5

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        document = native_object(data, name, parsed, "a SillyTavern world")
        entries = []
        for _key, uid, raw in entries_by_uid(document, name):
            values = decode_fields(ENTRY_FIELDS, raw)
            values["uid"] = uid
            entries.append(values)
        title = file_stem(name) or "World"
        original = {"format": FORMAT_ID, "document": document}
        hint = "check the entries of the file"
        body = {"entries": entries}
        return Decoded([read_piece(Lorebook, title, name, "world", body, original, hint, mapped=True)])

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        prior = _escrowed(piece)
        prior_entries = {str(uid): (key, raw) for key, uid, raw in entries_by_uid(prior, "")} if prior else {}
        body = piece.body.model_dump(mode="json")
        matches = [prior_entries.get(str(entry["uid"])) for entry in body["entries"]]
        # a RisuAI folder, not lore: off, as in RisuAI (one the file already held stays as it is there)
        places = [index for index in risu_folder_places(body["entries"]) if matches[index] is None]
        folders = risu_folders_marked(body["entries"], "a SillyTavern world", places)
        for index in places:
            body["entries"][index] = {**body["entries"][index], "enabled": False}
        new_uids = iter(_new_entry_uids(body["entries"], matches))
        entries: dict[str, dict] = {}
        for entry, match in zip(body["entries"], matches):
            if match is not None:
                key, raw = match
                entries[key] = encode_fields(ENTRY_FIELDS, entry, raw)
            else:
                native_uid = next(new_uids)
                entries[str(native_uid)] = {
                    "uid": native_uid,
                    **encode_fields(ENTRY_FIELDS, entry, None),
                    **fresh_entry_extras(entry),
                }
        document = {**(prior or {}), "entries": entries}
        data = native_json_bytes(document)
        back = self.read(data, piece.id + self.extensions[0], None).pieces[0]
        losses = folders + readback_losses(dump_piece(piece), dump_piece(back), LOSS_RULES, FALLBACK, folders)
        if prior is None:  # text written for another platform (RisuAI, a V3 card) may hold decorators
            losses += decorators_ignored(body["entries"])
        return Encoded(data, losses)


_UID = int_reader(None)  # built once: a world of hundreds of entries reads a uid per entry


def entries_by_uid(document: dict, name: str) -> list[tuple[str, int | str, dict]]:
    """(object key, canonical uid, entry) for each entry, uids made unique the way the file means them.

    The uid is the entry's own `uid` when it is an integer not yet taken, else its object
    key (SillyTavern keys entries by uid), else the lowest free integer.
    """
    entries = document.get("entries")
    if not isinstance(entries, dict):
        raise BunzaiError(
            "corrupt_file",
            f"{name or 'the file'} is not a SillyTavern world: `entries` is not an object",
            'a world file is {"entries": {"<uid>": {...}}}',
        )
    taken: set[str] = set()
    free = _free_numbers(taken)
    out = []
    for key, raw in entries.items():
        if not isinstance(raw, dict):
            raise BunzaiError(
                "corrupt_file",
                f"{name or 'the file'}: world entry {key!r} is not an object",
                "each entry of a world file is an object",
            )
        uid: int | str | None = _UID(raw.get("uid"))
        text = None if uid is None else str(uid)
        if text is None or text in taken:
            uid = int(key) if _decimal(key) else key
            text = str(uid)
            if text in taken:
                uid = next(free)
                text = str(uid)
        taken.add(text)
        out.append((key, uid, raw))
    return out


def _new_entry_uids(entries: list[dict], matches: list) -> list[int]:
    """The native uids of the entries with no escrowed match, in order.

    SillyTavern keys entries by uid and gives a new entry a free key (getFreeWorldEntryUid):
    a new entry takes neither the key nor the uid of an entry written back over its escrow,
    or it would overwrite it (a file keyed 1, 2 ... over uids 0, 1 ...).
    """
    kept = {str(text) for entry, match in zip(entries, matches) if match for text in (match[0], entry["uid"])}
    return _native_uids([entry["uid"] for entry, match in zip(entries, matches) if not match], kept)


def _native_uids(uids: list[int | str], taken: set[str]) -> list[int]:
    """Integer uids for new entries: integers (and their digit strings) kept unless taken, others numbered anew."""
    keep = [uid if isinstance(uid, int) else int(uid) if _decimal(uid) else None for uid in uids]
    out: list[int | None] = []
    for uid in keep:
        out.append(uid if uid is not None and str(uid) not in taken else None)
        if uid is not None:
            taken.add(str(uid))
    free = _free_numbers(taken)
    return [next(free) if uid is None else uid for uid in out]


def _free_numbers(taken: set[str]) -> Iterator[int]:
    """The lowest integers not in `taken`, ascending, each added to it as it is given.

    `taken` only grows, so the lowest free number never goes back: one pass over the numbers
    however many are asked for (a book of thousands of text uids is numbered in linear time).
    """
    number = 0
    while True:
        if str(number) not in taken:
            taken.add(str(number))
            yield number
        number += 1


def _escrowed(piece: Any) -> dict | None:
    original = piece.original
    if original is None or original.format != FORMAT_ID or not isinstance(original.document, dict):
        return None
    return original.document if isinstance(original.document.get("entries"), dict) else None


register(SillyTavernWorld())
