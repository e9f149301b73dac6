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

A change that renumbers entries (lorebook.entries.reorder gives every entry its place as its
display_index, as SillyTavern's editor does) touches every entry, each with one field whose
value is its place. Such entries of one shape (`_shape`: the field, and the other fields,
their free text told only by whether there is any and whether it holds a RisuAI decorator)
stand in for one another: the slice keeps the book's first entries, at their own places, until it holds two
of each shape, and a pointer to a later entry is looked up at its shape's first entry there
(`_stand_ins`), whose value is its place too. convert.platform_impact crosses the whole
piece to a format where the kept entries of one shape do not show the same row (`agree`).

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
from typing import Any, Literal, NamedTuple, get_origin

from bunzai.limits import (
    ARCHIVE_MAX_BYTES,
    ARCHIVE_MEMBER_MAX_BYTES,
    ARCHIVE_TOTAL_MAX_BYTES,
    IMPACT_SLICE_MAX_DEPTH,
    JSON_MAX_BYTES,
    PNG_MAX_BYTES,
)
from bunzai.model.lorebook import LoreEntry


class Slice(NamedTuple):
    piece: dict  # the proposed piece with only the kept entries
    pointers: list[str]  # the changed pointers, renumbered to the kept entries
    omitted: int  # `measure` of the entries left out, in bytes
    agree: tuple[tuple[str, ...], ...] = ()  # kept pointers that stand in for others: each tuple's rows must be one


# Where each kind keeps its entries: a lorebook's own, a character's embedded book.
ENTRY_LISTS = {"lorebook": ("body", "entries"), "character": ("body", "book", "entries")}
_INDENT, _WRAP = 4, 3  # see `measure`
_TEXT_GROWTH, _PNG_GROWTH = 1.25, 3.0  # see `fits`: above the most the tests find (1.0 and 2.65; 8/3 at most)
# An archive's members: a RisuAI CHARX writes the book into card.json and module.risum, each
# growing as a text file does, so all of them together grow by at most twice that.
_ARCHIVE_GROWTH = 2 * _TEXT_GROWTH
_CONTAINERS = (dict, list)
# The fields an editor numbers by place (SillyTavern's, and lorebook.entries.reorder, number
# display_index), which every format keeps or loses whatever the number (tests/test_impact_slice.py
# tries 0 to 2**53 - 1). Not a field read in ranges: RisuAI clamps a probability to 0..100.
_RENUMBERED = frozenset({"display_index"})
# An entry's fields of a few set words (position, role ...): a shape names their values, and of
# its free text only whether there is any and whether it holds a RisuAI decorator.
_CHOICES = frozenset(name for name, info in LoreEntry.model_fields.items() if get_origin(info.annotation) is Literal)


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
    if _uids_repeat(entries):
        return None
    first, stand_in, agree = _stand_ins(entries, touched)
    kept = sorted(
        {*range(first), 0, *(index for _, index, _ in touched if index is not None and index not in stand_in)}
    )
    if len(kept) == len(entries):
        return None
    placed = _placed(entries, kept)
    if placed is None:
        return None
    written, depth = measure(proposed)
    if depth > IMPACT_SLICE_MAX_DEPTH:
        return None
    place = {index: position for position, index in enumerate(kept)}
    place.update(stand_in)  # a stand-in is kept at its own place
    renumbered = [pointer if index is None else f"{prefix}/{place[index]}{rest}" for pointer, index, rest in touched]
    piece = _with_entries(proposed, path, placed)
    shown = tuple(tuple(f"{prefix}/{index}{rest}" for index in members) for rest, members in agree)
    return Slice(piece, renumbered, written - measure(piece)[0], shown)


def _stand_ins(entries: list, touched: list[tuple[str, int | None, str]]) -> tuple[int, dict, list]:
    """(how many of the book's first entries the slice keeps, {entry: the kept entry that
    stands in for it}, [(field, the kept entries of one shape)]): for the entries whose one
    change is a `_RENUMBERED` field set to their place, grouped by `_shape`: each shape of more than two
    such entries whose first two lie in the book's first half."""
    per_entry: dict[int, int] = {}
    for _, index, _ in touched:
        if index is not None:
            per_entry[index] = per_entry.get(index, 0) + 1
    shapes: dict[tuple, list[int]] = {}
    for _, index, rest in touched:
        field = rest[1:]
        entry = entries[index] if index is not None else None
        if field not in _RENUMBERED or per_entry.get(index) != 1 or not isinstance(entry, dict):
            continue
        if entry.get(field).__class__ is int and entry[field] == index:
            shapes.setdefault((rest, _shape(entry, field, index)), []).append(index)
    many = [(rest, sorted(members)) for (rest, _), members in shapes.items() if len(members) > 2]
    many = [(rest, members) for rest, members in many if 2 * (members[1] + 1) <= len(entries)]  # the first half
    first = max((members[1] + 1 for _, members in many), default=0)
    many = [(rest, members) for rest, members in many if members[-1] >= first]  # some left out
    stand_in = {index: members[0] for _, members in many for index in members if index >= first}
    if not stand_in:
        return 0, {}, []
    return first, stand_in, [(rest, [index for index in members if index < first]) for rest, members in many]


def _shape(entry: dict, field: str, index: int) -> tuple:
    """What a format's crossing of `entry`'s `field` could turn on, but the value: its uid's
    type and whether it is the entry's place (RisuAI reads it from there), and every other
    field, its free text told only by whether there is any and whether it holds a decorator.
    Keys in another order make another shape: fewer entries stand in for others, none wrongly."""
    uid = entry.get("uid")
    rest = (
        (key, value if key in _CHOICES and value.__class__ is str else _skeleton(value))
        for key, value in entry.items()
        if key not in (field, "uid")
    )
    return (uid.__class__, uid == index, *rest)


def _skeleton(value: Any) -> Any:
    kind = value.__class__
    if kind is bool or value is None:
        return value
    if kind is str:
        return ("text", bool(value), "@@" in value)
    if kind is dict:
        return ("object", *((key, _skeleton(item)) for key, item in value.items()))
    if kind is list:
        return ("array", frozenset(_skeleton(item) for item in value))
    return (kind, value > 0, value < 0)  # a number


def _uids_repeat(entries: list) -> bool:
    """Whether two entries of the book read back with one uid (an empty uid reads as the entry's
    place; 1 and "1" are one uid): a reader renumbers the repeat to the next free integer
    (card_book.uids_of), which depends on every entry before it, so no slice shows it."""
    given = [entry.get("uid") if isinstance(entry, dict) else None for entry in entries]
    uids = [str(index) if uid == "" else str(uid) for index, uid in enumerate(given)]
    return len(set(uids)) != len(uids)


def _placed(entries: list, kept: list[int]) -> list | None:
    """The kept entries, each whose uid is its place in the book given its place in the slice
    instead, so that a format that reads a uid back from the entry's place (RisuAI) keeps or
    loses it in the slice as in the whole book; None (cross the whole piece) where that cannot
    be kept: an entry whose uid is not its place in the book but is its place in the slice, an
    empty uid (read back as the entry's place) away from its place, or uids that the renumbering
    would make repeat."""
    out = []
    for position, index in enumerate(kept):
        entry = entries[index]
        uid = entry.get("uid") if isinstance(entry, dict) else None
        if uid.__class__ is int and uid != position:
            if uid == index:
                entry = {**entry, "uid": position}
        elif uid.__class__ is int and position != index:
            return None  # its uid is its place here, and was not in the book
        elif uid == "" and position != index:
            return None  # an empty uid is none: the formats read it back as the entry's place
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
