"""The review card `apply` shows before it asks: target, bounded before/after rows, warnings."""

from __future__ import annotations

import json
from typing import Any

from bunzai.limits import REVIEW_MAX_ROWS, REVIEW_VALUE_CHARS

_MARK = {"add": "+", "remove": "-", "replace": "~"}


def review_card(draft: dict) -> str:
    target = f"{draft['target']['kind']}/{draft['target']['id']}"
    base = draft.get("baseline") or "none (new piece)"
    lines = [f"{draft['mode']} {target}", f"  baseline: {base}"]
    changes = [c for c in draft.get("changes", []) if c.get("op") != "more"]
    hidden = sum(c.get("count", 0) for c in draft.get("changes", []) if c.get("op") == "more")
    for change in changes[:REVIEW_MAX_ROWS]:
        lines.append(_row(change))
    hidden += max(0, len(changes) - REVIEW_MAX_ROWS)
    if hidden:
        lines.append(f"  ... and {hidden} more change(s)")
    if not changes:
        lines.append("  (no changes)")
    for warning in draft.get("warnings", []):
        text = warning.get("message", warning) if isinstance(warning, dict) else warning
        lines.append(f"  warning: {_cut(str(text))}")
    return "\n".join(lines)


def _row(change: dict) -> str:
    mark = _MARK.get(change["op"], "?")
    path = change["path"] or "(piece)"
    if change["op"] == "replace":
        return f"  {mark} {path}: {_show(change['before'])} -> {_show(change['after'])}"
    value = change.get("after") if change["op"] == "add" else change.get("before")
    return f"  {mark} {path}: {_show(value)}"


def _show(value: Any) -> str:
    return _cut(json.dumps(value, ensure_ascii=False))


def _cut(text: str) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= REVIEW_VALUE_CHARS else text[: REVIEW_VALUE_CHARS - 1] + "…"
