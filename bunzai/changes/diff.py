"""The exact changes between two JSON documents, as RFC 6901 pointers."""

from __future__ import annotations

import json
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator
from typing import Any

from bunzai.jsondoc.values import MISSING, changes as json_changes, equal
from bunzai.limits import DRAFT_MAX_CHANGES
from bunzai.query.pointer import join


def diff_json(before: Any, after: Any, pointer: str = "") -> list[dict]:
    """Changes turning `before` into `after`: [{op, path, before?, after?}].

    The rows are bunzai.jsondoc.values.changes (JSON equality: true is not 1, 1 is 1.0), the walk
    an adapter's read-back uses too: objects key by key, equal-length arrays item by item, an
    array that grows or shrinks is one replace unless it kept items at its start or end
    (`aligned`). The list is bounded by limits.DRAFT_MAX_CHANGES (the last row then says how
    many more).
    """
    return bounded(aligned(all_changes(before, after, pointer)), pointer)


def kept_ends(old: list, new: list) -> tuple[int, int]:
    """How many items two lists share at their start, and then at their end (not overlapping)."""
    head, most = 0, min(len(old), len(new))
    while head < most and equal(old[head], new[head]):
        head += 1
    tail = 0
    while tail < most - head and equal(old[-1 - tail], new[-1 - tail]):
        tail += 1
    return head, tail


def stretches(old: list, new: list) -> list[tuple[int, int, int, int]]:
    """The stretches `(i1, i2, j1, j2)` where `old[i1:i2]` became `new[j1:j2]`, between the
    items the two lists kept: those they share at their start and end (`kept_ends`), and
    between those the items found once in each list, in the longest run that keeps their
    order (patience diff's anchors). Two entries taken out of a book far apart are two
    stretches, and an entry moved is one taken out and one put in; O(n log n) in the items."""
    head, tail = kept_ends(old, new)
    out, i, j = [], head, head
    for a, b in _anchors(old[head : len(old) - tail], new[head : len(new) - tail]):
        if i < head + a or j < head + b:
            out.append((i, head + a, j, head + b))
        i, j = head + a + 1, head + b + 1
    if i < len(old) - tail or j < len(new) - tail:
        out.append((i, len(old) - tail, j, len(new) - tail))
    return out


def _anchors(old: list, new: list) -> list[tuple[int, int]]:
    """(place in old, place in new) of the items found exactly once in each list, the longest
    run of them in the same order in both (patience sorting over their places in `old`)."""
    if not old or not new:
        return []
    keys_old = [_key(item) for item in old]
    keys_new = [_key(item) for item in new]
    seen_old = Counter(keys_old)
    once_new = {key for key, count in Counter(keys_new).items() if count == 1}
    place_old = {key: place for place, key in enumerate(keys_old) if seen_old[key] == 1 and key in once_new}
    pairs = [(place_old[key], place) for place, key in enumerate(keys_new) if key in place_old]
    tops: list[int] = []  # tops[k]: the old place ending the best run of k + 1 anchors so far
    ends: list[int] = []  # the pair index at each top
    before: list[int] = []  # per pair: the pair before it in its run, or -1
    for index, (place, _) in enumerate(pairs):
        k = bisect_left(tops, place)
        if k == len(tops):
            tops.append(place)
            ends.append(index)
        else:
            tops[k], ends[k] = place, index
        before.append(ends[k - 1] if k else -1)
    run, index = [], ends[-1] if ends else -1
    while index != -1:
        run.append(pairs[index])
        index = before[index]
    return run[::-1]


def _key(value: Any) -> str:
    """A value's text for matching items, whatever the order of its objects' keys: JSON with
    sorted keys, which tells true from 1 as JSON equality does (it also tells 1 from 1.0,
    which only leaves such an item unmatched, to be compared). Not marshal: its bytes follow
    key order and how many references Python holds to a value."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def aligned(changes: list[dict], *, whole: bool = True, removed: bool = True) -> list[dict]:
    """`changes` with each array that grew or shrank, but kept some of its items, told item
    by item (`stretches`): an entry taken out of a book of thousands is one `remove` (at its
    place in the old array), one put in is one `add` (at its place in the new one), and the
    items of a stretch are compared place for place, named at their places in the new array.
    An array that kept none of its items stays one `replace`, as does one that was empty (a
    create's rows).

    For a crossing's impact (convert.platform_impact), which asks only what an item could
    lose: `whole=False` splits an array that kept nothing into its items too, and
    `removed=False` leaves out the items taken out (no format carries them back)."""
    rows = []
    for change in changes:
        old, new = change.get("before"), change.get("after")
        if change["op"] != "replace" or not isinstance(old, list) or not isinstance(new, list):
            rows.append(change)
            continue
        found = stretches(old, new)
        if whole and found == [(0, len(old), 0, len(new))]:
            rows.append(change)
            continue
        path = change["path"]
        for was, now in paired(found):
            if now is None:
                if removed:
                    rows.append(_row(join(path, was), old[was], MISSING))
            elif was is None:
                rows.append(_row(join(path, now), MISSING, new[now]))
            else:
                rows += aligned(all_changes(old[was], new[now], join(path, now)), whole=whole, removed=removed)
    return rows


def paired(found: list[tuple[int, int, int, int]]) -> Iterator[tuple[int | None, int | None]]:
    """The places of the stretches' items, in order: `(old, new)` for the items a stretch
    compares place for place, then `(old, None)` for those taken out and `(None, new)` for
    those put in (past the shorter side of the stretch)."""
    for i1, i2, j1, j2 in found:
        common = min(i2 - i1, j2 - j1)
        for offset in range(common):
            yield i1 + offset, j1 + offset
        for place in range(i1 + common, i2):
            yield place, None
        for place in range(j1 + common, j2):
            yield None, place


def bounded(changes: list[dict], pointer: str = "") -> list[dict]:
    """`all_changes` rows cut to limits.DRAFT_MAX_CHANGES, as `diff_json` gives them."""
    if len(changes) > DRAFT_MAX_CHANGES:
        extra = len(changes) - DRAFT_MAX_CHANGES
        changes = changes[:DRAFT_MAX_CHANGES]
        changes.append({"op": "more", "path": pointer, "count": extra})
    return changes


def all_changes(before: Any, after: Any, pointer: str = "") -> list[dict]:
    """`diff_json` without its bound: every change. What a crossing's read-back is compared
    by (convert.py), where a change past the bound would be a loss left unreported and the
    summary row, whose path is the root, a loss of the whole piece reported wrongly."""
    return [_row(where, old, new) for where, old, new in json_changes(before, after, pointer)]


def _row(pointer: str, before: Any, after: Any) -> dict:
    if before is MISSING:
        return {"op": "add", "path": pointer, "after": after}
    if after is MISSING:
        return {"op": "remove", "path": pointer, "before": before}
    return {"op": "replace", "path": pointer, "before": before, "after": after}
