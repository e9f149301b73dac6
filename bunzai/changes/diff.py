"""The exact changes between two JSON documents, as RFC 6901 pointers.

Items that carry an id (IDENTITY_FIELDS: a book's entries, a preset's blocks, a set's rules)
are told by it: an entry moved is one `move` row (and its own changes), not a change of every
place it passed.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator
from typing import Any

from bunzai.jsondoc.values import MISSING, changes as json_changes, equal
from bunzai.limits import DRAFT_MAX_CHANGES
from bunzai.query.pointer import join

# The fields that name a list's items, in the order they are tried: a lorebook entry's uid,
# a rule's or a reply's id, a SillyTavern prompt block's identifier.
IDENTITY_FIELDS = ("uid", "id", "identifier")


def diff_json(before: Any, after: Any, pointer: str = "") -> list[dict]:
    """Changes turning `before` into `after`: [{op, path, before?, after?}].

    The rows are bunzai.jsondoc.values.changes (JSON equality: true is not 1, 1 is 1.0), the walk
    an adapter's read-back uses too: objects key by key, equal-length arrays item by item, an
    array that grows or shrinks is one replace unless it kept items at its start or end
    (`aligned`), and an array of items with ids is told by id (`draft_changes`). The list is
    bounded by limits.DRAFT_MAX_CHANGES (the last row then says how many more).
    """
    return bounded(aligned(draft_changes(before, after, pointer)), pointer)


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
    return longest_run([(place_old[key], place) for place, key in enumerate(keys_new) if key in place_old])


def longest_run(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of `pairs` (old place, new place), in new order, whose old places rise
    too: the items that kept their order (patience sorting)."""
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
    create's rows). Arrays whose items carry ids and share some are told by id (`_by_id`).

    For a crossing's impact (convert.platform_impact), which asks only what an item could
    lose: `whole=False` splits an array that kept nothing into its items too, and
    `removed=False` leaves out the items taken out (no format carries them back)."""
    rows = []
    for change in changes:
        old, new = change.get("before"), change.get("after")
        if change["op"] != "replace" or not isinstance(old, list) or not isinstance(new, list):
            rows.append(change)
            continue
        ids = identities(old, new) if old and new else None
        if ids is not None and not set(ids[0]).isdisjoint(ids[1]):
            rows += _by_id(old, new, change["path"], *ids, whole=whole, removed=removed)
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
                rows += aligned(draft_changes(old[was], new[now], join(path, now)), whole=whole, removed=removed)
    return rows


def _by_id(old: list, new: list, path: str, ids_old: list, ids_new: list, *, whole: bool, removed: bool) -> list:
    """Two lists of items with ids, told by id: an item taken out is a `remove` at its old
    place, one put in an `add` at its new place, one that left the order the others kept a
    `move` from its old place to its new one, and each item's own changes are named at its
    new place."""
    place_old = {key: place for place, key in enumerate(ids_old)}
    kept = set(longest_run([(place_old[key], place) for place, key in enumerate(ids_new) if key in place_old]))
    rows = []
    if removed:
        now = set(ids_new)
        rows += [_row(join(path, place), old[place], MISSING) for place, key in enumerate(ids_old) if key not in now]
    for place, key in enumerate(ids_new):
        was = place_old.get(key)
        if was is None:
            rows.append(_row(join(path, place), MISSING, new[place]))
            continue
        if (was, place) not in kept:
            rows.append({"op": "move", "from": join(path, was), "path": join(path, place)})
        rows += aligned(draft_changes(old[was], new[place], join(path, place)), whole=whole, removed=removed)
    return rows


def identities(old: list, new: list) -> tuple[list, list] | None:
    """The ids of two lists' items, by the first of IDENTITY_FIELDS that every item of both
    holds as a string or an integer, once on each side; None when no field does."""
    for field in IDENTITY_FIELDS:
        ids_old = _ids(old, field)
        if ids_old is not None:
            ids_new = _ids(new, field)
            if ids_new is not None:
                return ids_old, ids_new
    return None


def _ids(items: list, field: str) -> list | None:
    ids = []
    for item in items:
        value = item.get(field) if item.__class__ is dict else None
        if value.__class__ is not str and value.__class__ is not int:
            return None
        ids.append((value.__class__ is str, value))  # the uid 1 is not the id "1"
    return ids if len(set(ids)) == len(ids) else None


def _moved(old: list, new: list) -> bool:
    """Whether two lists of the same length hold items with ids, one of them, found on both
    sides, at another place: then the walk hands them over whole, to be told by id (`_by_id`).
    An id changed in place, to one the old list did not hold, is a rename (a sprite relabelled):
    its row replaces the id."""
    if not old or old[0].__class__ is not dict:
        return False
    ids = identities(old, new)
    if ids is None:
        return False
    ids_old, ids_new = ids
    shared = set(ids_old).intersection(ids_new)
    return any(a != b and (a in shared or b in shared) for a, b in zip(ids_old, ids_new))


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


def draft_changes(before: Any, after: Any, pointer: str = "") -> list[dict]:
    """`all_changes`, but a list whose items (with ids) moved is one row, for `aligned` to tell
    by id: what a draft shows and its impact crosses (a move is not a change of every place)."""
    return [_row(where, old, new) for where, old, new in json_changes(before, after, pointer, _moved)]


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
