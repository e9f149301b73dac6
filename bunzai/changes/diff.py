"""The exact changes between two JSON documents, as RFC 6901 pointers."""

from __future__ import annotations

from typing import Any

from bunzai.jsondoc.values import MISSING, changes as json_changes
from bunzai.limits import DRAFT_MAX_CHANGES


def diff_json(before: Any, after: Any, pointer: str = "") -> list[dict]:
    """Changes turning `before` into `after`: [{op, path, before?, after?}].

    The rows are bunzai.jsondoc.values.changes (JSON equality: true is not 1, 1 is 1.0), the walk
    an adapter's read-back uses too: objects key by key, equal-length arrays item by item, an
    array that grows or shrinks is one replace. The list is bounded by
    limits.DRAFT_MAX_CHANGES (the last row then says how many more).
    """
    return bounded(all_changes(before, after, pointer), pointer)


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
