"""The review card `apply` shows before it asks: target, bounded before/after rows, warnings.

It goes to a terminal (`apply` asks on /dev/tty, `draft show --text` prints it), and most of
it is what a piece's authors wrote: every text in it shows control characters, bidi
overrides and invisible characters as escapes (`hidden_chars.escape`), and each row is one line.
"""

from __future__ import annotations

import json
from typing import Any

from bunzai.changes.hidden_chars import escape, escape_parts
from bunzai.changes.word_diff import render
from bunzai.limits import REVIEW_CONTEXT_WORDS, REVIEW_DIFF_CHARS, REVIEW_MAX_ROWS, REVIEW_VALUE_CHARS

_MARK = {"add": "+", "remove": "-", "replace": "~", "move": ">"}


def review_card(draft: dict) -> str:
    target = escape(f"{draft['target']['kind']}/{draft['target']['id']}")
    base = escape(str(draft.get("baseline") or "none (new piece)"))
    lines = [f"{escape(str(draft['mode']))} {target}", f"  baseline: {base}"]
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
    path = escape(str(change["path"] or "(piece)"))
    if change["op"] == "move":
        return f"  {mark} {path}: moved from {escape(str(change.get('from')))}"
    if change["op"] == "replace" and _long_text(change.get("before"), change.get("after")):
        words = render(change["before"], change["after"], REVIEW_CONTEXT_WORDS)
        return f"  {mark} {path} (words): {_cut(words, REVIEW_DIFF_CHARS)}"
    if change["op"] == "replace":
        return f"  {mark} {path}: {_show(change['before'])} -> {_show(change['after'])}"
    value = change.get("after") if change["op"] == "add" else change.get("before")
    return f"  {mark} {path}: {_show(value)}"


def _long_text(before: Any, after: Any) -> bool:
    """Two strings too long (or too many lines) to show whole: their words are compared."""
    if not (isinstance(before, str) and isinstance(after, str)):
        return False
    return any(len(text) > REVIEW_VALUE_CHARS or "\n" in text for text in (before, after))


def _show(value: Any) -> str:
    return _cut(json.dumps(value, ensure_ascii=False))


def _cut(text: str, limit: int = REVIEW_VALUE_CHARS) -> str:
    """`text` as one line with its hidden characters escaped, cut (at a whole escape) to `limit`
    characters ending in `…`."""
    parts = escape_parts(text[: limit + 1])  # an escape only lengthens a text: what is past this never shows
    if sum(map(len, parts)) <= limit:
        return "".join(parts)
    kept, used = [], 0
    for part in parts:
        used += len(part)
        if used > limit - 1:
            break
        kept.append(part)
    return "".join(kept) + "…"
