"""Addressing lorebook entries: by uid (stable, what the platforms store) or by index.

uids compare as text, as the model does (1 and "1" are one entry). New entries get the
next integer uid after the largest integer uid in the book.
"""

from __future__ import annotations

from pydantic import Field, create_model

from bunzai.errors import BunzaiError
from bunzai.model.base import Model
from bunzai.model.lorebook import LoreEntry

Uid = int | str


class EntrySelector(Model):
    """Input mix-in: one entry, by uid or by index (exactly one)."""

    uid: Uid | None = Field(default=None, description="The entry's uid (stable across edits; see the book's entries).")
    index: int | None = Field(
        default=None, description="The entry's position in the book's list (0 = first, -1 = last)."
    )


def select_entry(entries: list, uid: Uid | None, index: int | None) -> int:
    """The list position of the entry named by uid or index; invalid_input otherwise."""
    if (uid is None) == (index is None):
        raise BunzaiError(
            "invalid_input",
            "input fields 'uid' / 'index': name the entry by exactly one of them",
            'e.g. "uid": 3, or "index": -1 for the last',
        )
    if index is not None:
        if not -len(entries) <= index < len(entries):
            raise BunzaiError(
                "invalid_input",
                f"input field 'index': {index} is out of range (the book has {len(entries)} entries)",
                "indexes count from 0; -1 is the last",
            )
        return index % len(entries)
    return position_of(entries, uid)


def position_of(entries: list, uid: Uid) -> int:
    return positions_of(entries, [uid])[0]


def positions_of(entries: list, uids: list[Uid]) -> list[int]:
    """The list position of each uid, found through one index of the book (not one scan per uid)."""
    where = {str(entry.uid): i for i, entry in enumerate(entries)}
    missing = next((uid for uid in uids if str(uid) not in where), None)
    if missing is not None:
        known = ", ".join(str(e.uid) for e in entries[:20]) + (" …" if len(entries) > 20 else "")
        raise BunzaiError(
            "invalid_input",
            f"input field 'uid': no entry with uid {missing!r} (uids: {known or 'none'})",
            "a uid is the entry's own id, not its position in the list",
        )
    return [where[str(uid)] for uid in uids]


def next_uid(entries: list) -> int:
    numbers = [e.uid for e in entries if isinstance(e.uid, int)] + [
        int(e.uid) for e in entries if isinstance(e.uid, str) and e.uid.isdigit()
    ]
    return max(numbers, default=-1) + 1


def make_room(entries: list, index: int, count: int = 1) -> list:
    """The entries with every display_index at or past `index` moved up `count`, freeing those places.

    SillyTavern's editor lists entries by displayIndex: an entry put in the middle of a book must
    take a free place there, or it ties with the entry already there and may be listed after it.
    """
    return [
        e.model_copy(update={"display_index": e.display_index + count})
        if e.display_index is not None and e.display_index >= index
        else e
        for e in entries
    ]


def label(entry) -> str:
    return f"{entry.uid} ({entry.title})" if entry.title else str(entry.uid)


# Every LoreEntry field but the uid, optional: the fields given change, the rest stay.
EntryPatch = create_model(
    "EntryPatch",
    __base__=Model,
    __doc__="Entry fields to change; omitted fields keep their value (null clears a field that may be empty).",
    **{
        name: (field.annotation | None, Field(default=None, description=field.description))
        for name, field in LoreEntry.model_fields.items()
        if name != "uid"
    },
)


class NewEntry(LoreEntry):
    """A new entry: every LoreEntry field, the uid optional (default: the next free integer)."""

    uid: Uid | None = Field(default=None, description="uid of the new entry; default: the next free integer uid.")
