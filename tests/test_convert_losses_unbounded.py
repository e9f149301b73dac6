"""A crossing's read-back is compared in full: a big lorebook whose format drops a few fields
of every entry is not reported as losing its whole body, and an edit such a format carries
raises no impact row. (The drafts' diff stops at limits.DRAFT_MAX_CHANGES with a summary
row at the root; the loss computation used it once, and that row read as `/body` lost.)"""

from __future__ import annotations

from bunzai.convert import lost_pointers, platform_impact
from bunzai.limits import DRAFT_MAX_CHANGES
from bunzai.model import dump_piece
from bunzai.model.lorebook import Lorebook


def _book(entries: int, content_of_last: str = "Boats come in at dawn.") -> dict:
    rows = [
        {
            "uid": uid,
            "keys": [f"harbour{uid}"],
            "content": "Boats come in at dawn." if uid < entries - 1 else content_of_last,
            # SillyTavern's timed effects: the Agnai memory book has none of them
            "sticky": 2,
            "cooldown": 3,
            "delay": 1,
        }
        for uid in range(entries)
    ]
    return dump_piece(Lorebook.model_validate({"id": "harbour", "name": "Harbour", "body": {"entries": rows}}))


def test_every_difference_past_the_drafts_bound_is_a_lost_pointer_and_none_is_the_root() -> None:
    before = _book(DRAFT_MAX_CHANGES + 5)  # one differing value an entry: past the bound
    after = dump_piece(
        Lorebook.model_validate(
            dict(before, body=dict(before["body"], entries=[dict(e, sticky=None) for e in before["body"]["entries"]]))
        )
    )
    lost = lost_pointers(before, after, [])
    assert len(lost) == DRAFT_MAX_CHANGES + 5
    assert all(pointer.startswith("/body/entries/") and pointer.endswith("/sticky") for pointer in lost)


def test_an_edit_a_lossy_format_carries_has_no_impact_row_in_a_big_book() -> None:
    entries = DRAFT_MAX_CHANGES // 3 + 10  # the Agnai read-back differs in more rows than the bound
    before = _book(entries)
    proposed = _book(entries, content_of_last="Boats come in at noon.")
    rows = platform_impact(before, proposed)
    assert not [row for row in rows if row["pointer"] == f"/body/entries/{entries - 1}/content"], rows
