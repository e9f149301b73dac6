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
