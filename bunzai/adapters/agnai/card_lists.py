"""Losses for lists a card carries only part of, named at the list itself.

A crossing's read-back reports a list that grew or shrank as one change at the list, so a
loss named per item (as common.card_doc names them) does not cover it; these do.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.card_doc import CARD_EXTRA_LOREBOOKS, CARD_SCRIPTS_NOT_CARRIED
from bunzai.adapters.contract import Loss


def shrinking_lists(piece: Any, label: str, lorebooks: int | None = 1) -> list[Loss]:
    """`lorebooks`: how many lorebook links the format binds (None: the caller names those losses)."""
    body = piece.body
    losses = []
    if any(script.format != "sillytavern.regex" for script in body.behavior_scripts):
        why = f"{label} carries only SillyTavern regex scripts; the other payloads are left out of the list"
        losses.append(CARD_SCRIPTS_NOT_CARRIED.at("/body/behavior_scripts", why))
    if lorebooks is not None and len(body.links.lorebooks) > lorebooks:
        losses.append(
            CARD_EXTRA_LOREBOOKS.at("/body/links/lorebooks", f"{label} binds at most {lorebooks} lorebook(s)")
        )
    return losses
