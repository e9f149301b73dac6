"""The part of a big lorebook a draft's impact needs: the entries its change touches.

A draft's impact crosses the proposed piece through every format of its kind and looks up
each changed pointer in what comes back (convert.platform_impact). Whether a format carries
an entry's field is a matter of that entry alone, so a change to a few entries of a book of
thousands is crossed with those entries only, and with the first entry, so that a book is
never left empty: the same rows, for the cost of a few entries instead of the whole book.
A change outside the entries (the piece's name, a card's fields, the book's name or
settings) crosses with the first entry alone, for the same reason.

An entry added or replaced whole, or given a new uid, is crossed in the slice too. RisuAI
reads a uid back from the entry's place, so whether it keeps a uid depends on where the
entry sits: an entry whose uid is its place in the book gets its place in the slice as its
uid there (`_placed`), and the slice is not taken where that cannot be kept.

An entry taken out is no pointer at all (convert.platform_impact, by diff.aligned: no format can
carry it back), and the entries after it keep their own pointers, at their new places.

The piece is crossed whole where that cannot be shown: a change to the entries list itself
or to what holds it (a book added, removed or replaced), a pointer past the list's end, an
entry whose uid is its place in the slice but not in the book, and a piece so deeply nested
that a format's file of it could pass the readers' depth limit, since the whole piece may
fail to cross where a few entries would not. convert.platform_impact also crosses the whole
piece to a format whose file of it could pass its reader's size limits (`fits`, from the
slice's file and the `measure` of what it left out). An archive's reader also refuses a
member that compresses too well (a zip bomb's mark), but bunzai's archive writer stores
such a member instead (zipsafe.write_archive), so that is never what the whole piece would
show.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from bunzai.limits import (
    ARCHIVE_MAX_BYTES,
    ARCHIVE_MEMBER_MAX_BYTES,
    ARCHIVE_TOTAL_MAX_BYTES,
    IMPACT_SLICE_MAX_DEPTH,
    JSON_MAX_BYTES,
    PNG_MAX_BYTES,
)


class Slice(NamedTuple):
    piece: dict  # the proposed piece with only the kept entries
    pointers: list[str]  # the changed pointers, renumbered to the kept entries
    omitted: int  # `measure` of the entries left out, in bytes


# Where each kind keeps its entries: a lorebook's own, a character's embedded book.
ENTRY_LISTS = {"lorebook": ("body", "entries"), "character": ("body", "book", "entries")}
_INDENT, _WRAP = 4, 3  # see `measure`
_TEXT_GROWTH, _PNG_GROWTH = 1.25, 3.0  # see `fits`: above the most the tests find (1.0 and 2.65; 8/3 at most)
# An archive's members: a RisuAI CHARX writes the book into card.json and module.risum, each
# growing as a text file does, so all of them together grow by at most twice that.
_ARCHIVE_GROWTH = 2 * _TEXT_GROWTH
_CONTAINERS = (dict, list)


def entry_slice(proposed: dict, pointers: list[str]) -> Slice | None:
    """`proposed` with only the entries `pointers` fall under and the entry 0, `pointers`
    renumbered to match, and the measure of what was left out; or None when the piece is
    crossed whole."""
    path = ENTRY_LISTS.get(proposed.get("kind"))
    entries = _at(proposed, path) if path is not None else None
    if not isinstance(entries, list) or len(entries) < 2:
        return None
    prefix = "/" + "/".join(path)
    touched: list[tuple[str, int | None, str]] = []  # (pointer, entry index or None, the rest)
    for pointer in pointers:
        if not pointer.startswith(prefix + "/"):
            if (prefix + "/").startswith(pointer + "/"):
                return None  # the entries, or what holds them, changed as a whole
            touched.append((pointer, None, ""))
            continue
        token, slash, rest = pointer[len(prefix) + 1 :].partition("/")
        if not token.isdigit() or str(int(token)) != token or int(token) >= len(entries):
            return None
        touched.append((pointer, int(token), slash + rest))
    kept = sorted({0, *(index for _, index, _ in touched if index is not None)})
    if len(kept) == len(entries):
        return None
    placed = _placed(entries, kept)
    if placed is None:
        return None
    written, depth = measure(proposed)
    if depth > IMPACT_SLICE_MAX_DEPTH:
        return None
    place = {index: position for position, index in enumerate(kept)}
    renumbered = [pointer if index is None else f"{prefix}/{place[index]}{rest}" for pointer, index, rest in touched]
    piece = _with_entries(proposed, path, placed)
    return Slice(piece, renumbered, written - measure(piece)[0])


def _placed(entries: list, kept: list[int]) -> list | None:
    """The kept entries, each whose uid is its place in the book given its place in the slice
    instead, so that a format that reads a uid back from the entry's place (RisuAI) keeps or
    loses it in the slice as in the whole book; None (cross the whole piece) where that cannot
    be kept: an entry whose uid is not its place in the book but is its place in the slice, or
    uids that the renumbering would make repeat."""
    out = []
    for position, index in enumerate(kept):
        entry = entries[index]
        uid = entry.get("uid") if isinstance(entry, dict) else None
        if uid.__class__ is int and uid != position:
            if uid == index:
                entry = {**entry, "uid": position}
        elif uid.__class__ is int and position != index:
            return None  # its uid is its place here, and was not in the book
        out.append(entry)
    uids = [entry["uid"] for entry in out if isinstance(entry, dict) and "uid" in entry]
    return out if len(set(map(str, uids))) == len(uids) else None  # 1 and "1" are one uid (the model's rule)


def fits(data: bytes, omitted: int, *, archive: bool = False) -> bool:
    """Whether the whole piece's file in a format is within its reader's size limit, known
    from the slice's file (`data`) and the measure of the entries the slice left out: they
    add to a text format's file at most about their measure (1.0 of it for entries of long
    text in tests/test_impact_slice.py, which holds every format to these factors), and to a PNG
    card's at most 8/3 of their compact JSON (two base64 copies of the compact card), which
    is never more than their measure: 2.66 of it for entries of a million characters. In an
    `archive` they add to one member at most what they add to a text file, and to all the
    members together (and to the archive, every member stored) at most twice that. A file
    that may not fit is crossed with the whole piece."""
    if archive:
        return _archive_fits(data, omitted)
    png = data.startswith(b"\x89PNG")
    limit, growth = (PNG_MAX_BYTES, _PNG_GROWTH) if png else (JSON_MAX_BYTES, _TEXT_GROWTH)
    return len(data) + growth * omitted <= limit


def _archive_fits(data: bytes, omitted: int) -> bool:
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:  # bunzai's own writer's archive
        members = archive.infolist()
    sizes = [member.file_size for member in members]
    stored = len(data) + sum(member.file_size - member.compress_size for member in members)
    one, every = _TEXT_GROWTH * omitted, _ARCHIVE_GROWTH * omitted
    return (
        max(sizes, default=0) + one <= min(ARCHIVE_MEMBER_MAX_BYTES, JSON_MAX_BYTES)
        and sum(sizes) + every <= ARCHIVE_TOTAL_MAX_BYTES
        and stored + every <= ARCHIVE_MAX_BYTES
    )


def _at(document: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(document, dict):
            return None
        document = document.get(key)
    return document


def _with_entries(document: dict, path: tuple[str, ...], entries: list) -> dict:
    """`document` with the list at `path` replaced: the dicts along the path are copied, nothing else."""
    key, *deeper = path
    if not deeper:
        return {**document, key: entries}
    return {**document, key: _with_entries(document[key], tuple(deeper), entries)}


def measure(piece: dict) -> tuple[int, int]:
    """(bytes, depth) of the piece without its escrow, what its crossings are written from: the
    bytes of its JSON indented four spaces (the most any writer indents) as if it sat three
    levels deeper, which no format's file of it exceeds (a value alone on its line weighs its
    indentation: an array of 2,000 zeros is ten times its compact size), and how deep it nests."""
    doc = dict(piece, original=None)
    total = len(json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    deepest, stack = 0, [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        deepest = max(deepest, depth)
        if not value:
            continue  # `{}` and `[]` are written on one line
        line = 1 + _INDENT * (depth + _WRAP)  # a newline, then the item's indentation
        is_dict = value.__class__ is dict
        total += len(value) * (line + is_dict) + line - _INDENT  # (": " after a key; the closing line)
        for item in value.values() if is_dict else value:
            if item.__class__ in _CONTAINERS:
                stack.append((item, depth + 1))
    return total, deepest
