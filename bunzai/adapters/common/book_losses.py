"""The losses every lorebook writer may name, whichever spoke: one rule per code.

A book sits at /body (a lorebook file) or at /body/book (a card's embedded book), so each
pattern names both places. The writers pass a sentence naming the file they write.
"""

from __future__ import annotations

from bunzai.adapters.common.losses import LossRule

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
