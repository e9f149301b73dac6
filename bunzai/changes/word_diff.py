"""Word-level differences of two strings, so a one-word change in a long text is visible.

`word_ops` splits both texts into words, each with the space after it, sets aside the
unchanged start and end, and pairs the words between with difflib; `render` writes the
changed words as `[-old-]{+new+}` with a few unchanged words either side and `…` where
unchanged text is left out.

A word carries its trailing space into the matcher (rather than each space being a token of
its own) because difflib's matcher is quadratic in the number of repeats of a token, and a
space repeats once per word: a 600-word text with every third word changed took seconds.
"""

from __future__ import annotations

import difflib
import re

from bunzai.limits import REVIEW_WORD_DIFF_MAX_WORDS

_TOKEN = re.compile(r"\s+|[^\s]+")
_UNIT = re.compile(r"\s*\S+\s*|\s+")  # a word with the space after it (the first with the space before it too)
_TRAILING_SPACE = re.compile(r"\s*\Z")


def tokens(text: str) -> list[str]:
    """Words and the runs of space between them; joined, they give `text` back."""
    return _TOKEN.findall(text)


def word_ops(before: str, after: str) -> list[tuple[str, str]]:
    """(op, text) segments with op "equal", "delete" or "insert": the equal and delete
    segments joined give `before`, the equal and insert segments give `after`."""
    old, new = _UNIT.findall(before), _UNIT.findall(after)
    start = 0
    while start < len(old) and start < len(new) and old[start] == new[start]:
        start += 1
    end = 0
    while end < len(old) - start and end < len(new) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    ops: list[tuple[str, str]] = [("equal", "".join(old[:start]))] if start else []
    old_middle, new_middle = old[start : len(old) - end], new[start : len(new) - end]
    if max(len(old_middle), len(new_middle)) > REVIEW_WORD_DIFF_MAX_WORDS:
        opcodes = [("replace", 0, len(old_middle), 0, len(new_middle))]
    else:
        opcodes = difflib.SequenceMatcher(None, old_middle, new_middle, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            ops.append(("equal", "".join(old_middle[i1:i2])))
        else:
            ops.extend(_changed("".join(old_middle[i1:i2]), "".join(new_middle[j1:j2])))
    if end:
        ops.append(("equal", "".join(old[len(old) - end :])))
    merged: list[tuple[str, str]] = []
    for op, text in ops:  # unchanged text split at a pairing's edge is one run
        if merged and op == merged[-1][0] == "equal":
            merged[-1] = ("equal", merged[-1][1] + text)
        else:
            merged.append((op, text))
    return merged


def _changed(old: str, new: str) -> list[tuple[str, str]]:
    """A deletion and an insertion, with the whole words both start with and the space both
    end with kept outside them as unchanged text (`c{+ d+}` rather than `[-c-]{+c d+}`, and
    `[-old-]{+young+} ` rather than `[-old -]{+young +}`)."""
    same = _common_words(old, new)
    if same:
        return [("equal", same), *_changed(old[len(same) :], new[len(same) :])]
    space = _TRAILING_SPACE.search(old).group() if old and new else ""
    if space and not new.endswith(space):
        space = ""
    if space and (len(space) == len(old) or len(space) == len(new)):
        space = ""  # the whole of one side: nothing to keep outside
    cut = len(space)
    ops = []
    if old:
        ops.append(("delete", old[: len(old) - cut]))
    if new:
        ops.append(("insert", new[: len(new) - cut]))
    if space:
        ops.append(("equal", space))
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


def _common_words(old: str, new: str) -> str:
    """The longest common start of `old` and `new` that ends between words in both."""
    size = 0
    for a, b in zip(old, new):
        if a != b:
            break
        size += 1
    while size:
        ends_old = size == len(old) or old[size].isspace() or old[size - 1].isspace()
        ends_new = size == len(new) or new[size].isspace() or new[size - 1].isspace()
        if ends_old and ends_new and (size < len(old) or size < len(new)):
            return old[:size]
        size -= 1
    return ""
