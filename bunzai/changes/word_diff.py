"""Word-level differences of two strings, so a one-word change in a long text is visible.

`word_ops` splits both texts into words and the spaces between them and pairs them with
difflib; `render` writes the changed words as `[-old-]{+new+}` with a few unchanged words
either side and `…` where unchanged text is left out.
"""

from __future__ import annotations

import difflib
import re

_TOKEN = re.compile(r"\s+|[^\s]+")


def tokens(text: str) -> list[str]:
    """Words and the runs of space between them; joined, they give `text` back."""
    return _TOKEN.findall(text)


def word_ops(before: str, after: str) -> list[tuple[str, str]]:
    """(op, text) segments with op "equal", "delete" or "insert": the equal and delete
    segments joined give `before`, the equal and insert segments give `after`."""
    old, new = tokens(before), tokens(after)
    ops: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops.append(("equal", "".join(old[i1:i2])))
            continue
        if i2 > i1:
            ops.append(("delete", "".join(old[i1:i2])))
        if j2 > j1:
            ops.append(("insert", "".join(new[j1:j2])))
    return ops


def render(before: str, after: str, context: int | None) -> str:
    """The changes as `…words [-old-]{+new+} words…`; context=None keeps every unchanged word."""
    ops = word_ops(before, after)
    parts: list[str] = []
    for index, (op, text) in enumerate(ops):
        if op == "delete":
            parts.append(f"[-{text}-]")
        elif op == "insert":
            parts.append(f"{{+{text}+}}")
        else:
            parts.append(
                text if context is None else _trim(text, context, first=index == 0, last=index == len(ops) - 1)
            )
    return "".join(parts)


def _trim(text: str, context: int, *, first: bool, last: bool) -> str:
    """An unchanged run cut to `context` words after the change before it and before the next."""
    words = tokens(text)
    keep = 2 * context  # a word and the space after it are two tokens
    head = [] if first else words[:keep]
    tail = [] if last else words[-keep:] if keep else []
    if len(head) + len(tail) >= len(words):
        return text
    return "".join(head) + "…" + "".join(tail)
