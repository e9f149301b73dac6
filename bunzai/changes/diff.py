"""The exact changes between two JSON documents, as RFC 6901 pointers."""

from __future__ import annotations

from typing import Any

from bunzai.limits import DRAFT_MAX_CHANGES
from bunzai.query.pointer import join

_MISSING = object()


def diff_json(before: Any, after: Any, pointer: str = "") -> list[dict]:
    """Changes turning `before` into `after`: [{op, path, before?, after?}].

    Objects are compared key by key and equal-length arrays item by item; an array that
    grows or shrinks is one replace, because index-wise rows would misreport an insertion.
    The list is bounded by limits.DRAFT_MAX_CHANGES (the last row then says how many more).
    """
    changes: list[dict] = []
    _walk(before, after, pointer, changes)
    if len(changes) > DRAFT_MAX_CHANGES:
        extra = len(changes) - DRAFT_MAX_CHANGES
        changes = changes[:DRAFT_MAX_CHANGES]
        changes.append({"op": "more", "path": pointer, "count": extra})
    return changes


def _walk(before: Any, after: Any, pointer: str, out: list[dict]) -> None:
    if before is _MISSING:
        out.append({"op": "add", "path": pointer, "after": after})
    elif after is _MISSING:
        out.append({"op": "remove", "path": pointer, "before": before})
    elif isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(before.keys() | after.keys()):
            old, new = before.get(key, _MISSING), after.get(key, _MISSING)
            if old is _MISSING or new is _MISSING or not _same(old, new):
                _walk(old, new, join(pointer, key), out)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (old, new) in enumerate(zip(before, after)):
            if not _same(old, new):
                _walk(old, new, join(pointer, index), out)
    elif not _same(before, after):
        out.append({"op": "replace", "path": pointer, "before": before, "after": after})


def _same(a: Any, b: Any) -> bool:
    # JSON equality: 1 and 1.0 are the same number, True and 1 are not.
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b
