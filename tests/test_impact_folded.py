"""A draft's impact names each note at most IMPACT_POINTERS_SHOWN times per format, then counts."""

from __future__ import annotations

from collections import Counter

from bunzai.changes.diff import diff_json
from bunzai.convert import platform_impact
from bunzai.limits import IMPACT_POINTERS_SHOWN
from bunzai.model import dump_piece
from bunzai.validate import validate_piece

ENTRIES = 3 * IMPACT_POINTERS_SHOWN


def _book(order: list[int]) -> dict:
    entries = [
        {"uid": uid, "keys": [f"key{uid}"], "content": f"entry {uid}", "display_index": place}
        for place, uid in enumerate(order)
    ]
    return dump_piece(validate_piece({"kind": "lorebook", "id": "b", "name": "B", "body": {"entries": entries}}))


def test_a_move_that_renumbers_every_entry_is_counted_not_listed():
    before = _book(list(range(ENTRIES)))
    after = _book([ENTRIES - 1, *range(ENTRIES - 1)])  # the last entry to the top, as lorebook.entries.reorder does
    assert diff_json(before, after)[0] == {
        "op": "move",
        "from": f"/body/entries/{ENTRIES - 1}",
        "path": "/body/entries/0",
    }
    impact = platform_impact(before, after)
    per_format = Counter(row["platform"] for row in impact)
    assert per_format and all(count <= IMPACT_POINTERS_SHOWN + 1 for count in per_format.values())
    for fmt in per_format:
        rows = [row for row in impact if row["platform"] == fmt]
        shown = [row for row in rows if "more" not in row]
        folded = [row for row in rows if "more" in row]
        # every entry's display_index changed: the pointers shown and those counted are all of them
        assert len(shown) + sum(row["more"] for row in folded) == ENTRIES, fmt
        assert all(row["pointer"] == "" and f"and {row['more']} more" in row["note"] for row in folded)
