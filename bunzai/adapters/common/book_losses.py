"""The losses every lorebook writer may name, whichever spoke: one rule per code.

A book sits at /body (a lorebook file) or at /body/book (a card's embedded book), so each
pattern names both places. The writers pass a sentence naming the file they write. The
decorator losses are SillyTavern's (a world's or a card book's), one detection for both.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.decorators import only_decorators, risu_force, st_reading
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Loss
from bunzai.jsondoc.values import equal

BOOK_SETTING_NOT_CARRIED = LossRule(
    r"/body/(?:book/)?settings/[a-z_]+", "dropped", "book.settings.not_carried", "this book has no such setting"
)
POSITION_COLLAPSED = LossRule(
    r"/body/(?:book/)?entries/\d+/position",
    "flattened",
    "book.position.collapsed",
    "this book places entries only before or after the character; the position becomes after_char",
)
BOOK_ASSETS_NOT_CARRIED = LossRule("/assets", "dropped", "book.assets.not_carried", "a lorebook file carries no media")
BOOK_PROFILES_NOT_CARRIED = LossRule(
    "/profiles", "dropped", "book.profiles.not_carried", "a lorebook file has no per-platform profiles"
)


# --- decorators, for a SillyTavern world or card book written from another format ---------------
# Text written for RisuAI or a V3 card may start with decorators (bunzai.adapters.common.decorators).
# They are not mapped onto the entry's fields: RisuAI's depth, role and chance apply in its own prompt
# assembly and rolls, and taking the lines out would change the content, which every other crossing
# (and the way back to RisuAI) carries as written.
_CONTENT = r"/body(?:/book)?/entries/\d+/content"
DECORATORS_IGNORED = LossRule(
    _CONTENT,
    "dropped",
    "world.entry.decorators_ignored",
    "SillyTavern reads only the @@activate and @@dont_activate decorators: it takes the other @@ lines at the "
    "head of an entry's content out of the text and ignores them",
)
DECORATORS_KEPT = LossRule(
    _CONTENT,
    "translated",
    "world.entry.decorators_kept",
    "SillyTavern takes decorators out of an entry's content only above a line of text: content made only of "
    "@@ lines is inserted as text, decorators and all (RisuAI inserts nothing)",
)
DECORATOR_ACTIVATION = LossRule(
    _CONTENT,
    "translated",
    "world.entry.decorator_activation",
    "SillyTavern and RisuAI read this entry's @@activate / @@dont_activate decorators apart (a @@@ line is read "
    "only as the fallback of a decorator the app does not take, and they take different ones)",
)
_FORCE = {"activate": "always activates it", "deactivate": "never activates it", None: "activates it by its keys"}


def decorators_ignored(entries: list[dict], prefix: str = "/body/entries") -> list[Loss]:
    """A loss per entry whose head decorators SillyTavern reads otherwise than RisuAI, for a
    SillyTavern world or a SillyTavern card's book (`prefix` points at the entries): decorators
    it ignores (`@@depth`, `@@role`, `@@probability` ...), content made only of decorator lines
    (inserted as text), and a forced activation the two apps do not share."""
    losses = []
    for index, entry in enumerate(entries):
        content, at = entry["content"], f"{prefix}/{index}/content"
        ignored, st_force = st_reading(content)
        if only_decorators(content):
            losses.append(DECORATORS_KEPT.at(at))
        elif ignored:
            shown = ", ".join(line.strip()[:40] for line in ignored[:3]) + (" ..." if len(ignored) > 3 else "")
            why = (
                f"SillyTavern reads only the @@activate and @@dont_activate decorators: it takes {shown} out of the "
                "content and ignores them, so the entry is placed, voiced and rolled by its own fields"
            )
            losses.append(DECORATORS_IGNORED.at(at, why))
        risu = risu_force(content)
        if st_force != risu:
            why = (
                f"SillyTavern {_FORCE[st_force]}, RisuAI {_FORCE[risu]}: a @@@ line is read only as the fallback of "
                "a decorator the app does not take (SillyTavern takes only @@activate and @@dont_activate, and "
                "only as whole lines)"
            )
            losses.append(DECORATOR_ACTIVATION.at(at, why))
    return losses


def book_decorators_ignored(piece: Any) -> list[Loss]:
    """decorators_ignored over a character's embedded book, for a SillyTavern card written from
    another format (a card of its own format carries what SillyTavern already read)."""
    if piece.body.book is None:
        return []
    return decorators_ignored([{"content": entry.content} for entry in piece.body.book.entries], "/body/book/entries")


# --- RisuAI lorebook folders ----------------------------------------------------------------------
# RisuAI keeps a folder in the entry list itself: an entry of mode 'folder' whose key is
# '\uf000folder:<uuid>' and whose content is empty (addLorebookFolder, src/ts/process/lorebook.svelte.ts);
# an entry in it names that key in `folder`. Every reader puts both in extensions.risuai (a card's
# book, which keeps them beside the entry's spec keys, too: card_book); a book that lost them
# (one SillyTavern saved) shows a folder by its lone key alone.
RISU_FOLDER_KEY = "\uf000folder:"
FOLDER_MARKED = LossRule(
    r"/body/(?:book/)?entries/\d+",
    "flattened",
    "book.entry.risu_folder",
    "a RisuAI lorebook folder: this book has no folders, so it is written as a disabled entry under the "
    "folder's name, and the entries in it stand at the top level",
)


def _risu(entry: dict) -> dict:
    risu = (entry.get("extensions") or {}).get("risuai")
    return risu if isinstance(risu, dict) else {}


def _folder_key(entry: dict) -> str | None:
    keys = entry.get("keys") or []
    text = keys[0].get("text") if len(keys) == 1 and isinstance(keys[0], dict) else None
    return text if isinstance(text, str) and text.startswith(RISU_FOLDER_KEY) else None


def _may_be_folder(entry: Any) -> bool:
    """Whether a canonical entry (the model) could be one `risu_folder_places` names: RisuAI's
    extensions, or a lone folder key."""
    return "risuai" in entry.extensions or (len(entry.keys) == 1 and entry.keys[0].text.startswith(RISU_FOLDER_KEY))


def _is_folder(entry: dict) -> bool:
    return _risu(entry).get("mode") == "folder" or bool(_folder_key(entry) and not entry.get("content"))


def risu_folder_places(entries: list[dict]) -> list[int]:
    """The places of the entries that are RisuAI folders, not lore."""
    return [index for index, entry in enumerate(entries) if _is_folder(entry)]


def empty_folder(entry: dict) -> bool:
    """Whether a canonical entry (JSON form) is a RisuAI folder with no content: it inserts
    nothing whether it fires, so its `enabled` (off where a book without folders holds it) says
    nothing RisuAI, which has no such flag, needs."""
    return not entry.get("content") and _is_folder(entry)


def risu_folders_marked(
    entries: list[dict], label: str, places: list[int], prefix: str = "/body/entries"
) -> list[Loss]:
    """A loss per RisuAI folder (at `places`) a book without folders writes as a disabled entry,
    naming the entries in it: written on, it was a blank entry keyed by the folder's id."""
    losses = []
    for index in places:
        entry = entries[index]
        key = _folder_key(entry)
        inside = [
            other.get("title") or f"entry {place}"
            for place, other in enumerate(entries)
            if key and _risu(other).get("folder") == key
        ]
        held = ", ".join(repr(title) for title in inside[:5]) + (" ..." if len(inside) > 5 else "")
        why = (
            f"RisuAI folder {entry.get('title') or ''!r}{f' (holding {held})' if held else ''}: {label} has no "
            "folders, so the folder is written as a disabled entry under its name and the entries in it stand at "
            "the top level (each keeps the folder's key, so RisuAI files them in it again)"
        )
        losses.append(FOLDER_MARKED.at(f"{prefix}/{index}", why))
    return losses


def book_folders_off(piece: Any, label: str) -> tuple[Any, list[Loss]]:
    """A character whose embedded book holds RisuAI folders, with them disabled, for a card of
    `label` read by an app without folders; and the losses saying so."""
    book = piece.body.book
    if book is None or not any(_may_be_folder(entry) for entry in book.entries):
        return piece, []  # most books: no entry is dumped to be looked at
    entries = [entry.model_dump(mode="json") for entry in book.entries]
    places = risu_folder_places(entries)
    if not places:
        return piece, []
    off = [
        entry.model_copy(update={"enabled": False}) if i in places else entry for i, entry in enumerate(book.entries)
    ]
    body = piece.body.model_copy(update={"book": book.model_copy(update={"entries": off})})
    return piece.model_copy(update={"body": body}), risu_folders_marked(entries, label, places, "/body/book/entries")


def empty_folders_enabled(piece: dict) -> set[str]:
    """The `enabled` pointers of the empty RisuAI folders of a dumped lorebook piece."""
    if piece["kind"] != "lorebook":
        return set()
    return {f"/body/entries/{i}/enabled" for i, entry in enumerate(piece["body"]["entries"]) if empty_folder(entry)}


# --- a sure chance ---------------------------------------------------------------------------------
# An entry with a chance of 100 or more fires whenever it would with none: SillyTavern rolls
# `Math.random() * 100 <= probability`, and RisuAI's load turns an activationPercent into
# `@@probability N`, which deactivates on `Math.random() * 100 > parseInt(N)` (lorebook.svelte.ts),
# so past 100 neither ever misses (RisuAI's editor clamps it to 100, LoreBookData.svelte). A format
# that writes no chance for it (RisuAI's lorebook) reads it back with `use_probability` off, which
# is no loss.


def sure_chance(probability: Any) -> bool:
    """A chance that fires as surely as none: 100 or more (RisuAI's lorebook writes it as none)."""
    return isinstance(probability, int | float) and probability >= 100


def sure_chances(before: dict, after: dict) -> set[str]:
    """The pointers of two dumped pieces (a lorebook, or a character's book) where an entry's
    chance is sure on both sides (sure_chance): on or off, at 100 or past it, it fires as
    surely. `use_probability`, and `probability` where the two differ."""
    same = set()
    for where, was, now in _entry_pairs(before, after):
        if sure_chance(was.get("probability")) and sure_chance(now.get("probability")):
            same.add(f"{where}/use_probability")
            if was.get("probability") != now.get("probability"):
                same.add(f"{where}/probability")
    return same


def _entry_pairs(before: dict, after: dict) -> list[tuple[str, dict, dict]]:
    """(pointer, entry before, entry after) for the book entries of two dumped pieces of one kind."""
    if before["kind"] != after["kind"] or before["kind"] not in ("lorebook", "character"):
        return []
    prefix, old, new = "/body/entries", before["body"], after["body"]
    if before["kind"] == "character":
        prefix, old, new = "/body/book/entries", old.get("book") or {}, new.get("book") or {}
    pairs = zip(old.get("entries") or [], new.get("entries") or [])
    return [(f"{prefix}/{index}", was, now) for index, (was, now) in enumerate(pairs)]


# --- a recursion delay -----------------------------------------------------------------------------
# SillyTavern runs `delayUntilRecursion: true` as level 1 (`=== true ? 1 : level`) and 0 as off, so a
# format that keeps only the flag (Marinara) loses nothing of those two, only a deeper level.


def delay_level(value: Any) -> int:
    """A delay-until-recursion value as the level SillyTavern runs: true is 1, false and 0 are off."""
    return 1 if value is True else value if type(value) is int else 0


def alike_recursion_delays(before: dict, after: dict) -> set[str]:
    """The pointers of two dumped pieces where an entry's delay until recursion is spelled otherwise
    (true and 1, false and 0) but runs at the same level."""
    return {
        f"{where}/delay_until_recursion"
        for where, was, now in _entry_pairs(before, after)
        if not equal(was.get("delay_until_recursion"), now.get("delay_until_recursion"))
        and delay_level(was.get("delay_until_recursion")) == delay_level(now.get("delay_until_recursion"))
    }
