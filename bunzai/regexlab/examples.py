"""`from-examples`: a candidate pattern built from strings it must match and must not match.

Candidates, from the most general to the most literal:

- `wrapped`: the match examples share a delimiter at both ends (`*...*`, `[...]`, `<tag>...</tag>`):
  the delimiters with a lazy capture between them;
- `shape`: the examples have the same shape of runs (letters, digits, spaces, punctuation):
  one class per run, a run every example spells the same kept as written;
- `literal`: the examples themselves, as alternatives.

Each candidate is scored in the engine: a match example counts when the pattern finds it
whole inside it, a no-match example when the pattern finds nothing in it. The best score
wins; on a tie the more general candidate does.
"""

from __future__ import annotations

import os
import re
import unicodedata
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.regexlab import engine

_SPECIAL = re.compile(r"[\\^$.*+?()[\]{}|/]")
_WRITTEN_OUT = str.maketrans({"\n": "\\n", "\t": "\\t", "\r": "\\r", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def escape(text: str) -> str:
    """Text as a JavaScript pattern that matches it literally."""
    escaped = _SPECIAL.sub(lambda m: "\\" + m.group(0), text)
    # line terminators written out: SillyTavern reads /.../flags with `.`, which stops at them
    return escaped.translate(_WRITTEN_OUT)


def _wrapped(matches: list[str]) -> str | None:
    head = os.path.commonprefix(matches)
    tail = os.path.commonprefix([m[::-1] for m in matches])[::-1]
    tag = re.match(r"<(\w+)[^>]*>", head)
    if tag and tail.endswith(f"</{tag.group(1)}>"):
        head, tail = head[: tag.end()], f"</{tag.group(1)}>"
    else:
        # a delimiter is punctuation: a shared letter or space is content
        head = re.match(r"[^\w\s]{0,3}", head).group(0)
        tail = re.search(r"[^\w\s]{0,3}$", tail).group(0)
    if not head or not tail or any(len(m) <= len(head) + len(tail) for m in matches):
        return None
    stop = tail[0]
    body = "[\\s\\S]+?" if len(tail) > 1 or stop == "<" else f"[^{escape(stop)}\\n]+"
    return f"{escape(head)}({body}){escape(tail)}"


def _run_class(char: str, wide: bool) -> str | None:
    """The JavaScript class of the run a character belongs to (letters, digits, spaces), or None.

    JavaScript's `\\d` and `[^\\W\\d_]` are ASCII only, so examples with other letters or digits
    (`wide`) get Unicode property classes, which need the u flag.
    """
    if char in " \t":
        return "[ \\t]+"
    category = unicodedata.category(char)
    if wide:
        return "[\\p{L}\\p{M}]+" if category[0] in "LM" else "\\p{Nd}+" if category == "Nd" else None
    if char.isascii() and char.isalpha():
        return "[^\\W\\d_]+"
    return "\\d+" if char.isascii() and char.isdigit() else None


def _wide(matches: list[str]) -> bool:
    return any(not c.isascii() and unicodedata.category(c)[0] in "LMN" for text in matches for c in text)


def _shape(matches: list[str]) -> tuple[str, str] | None:
    """One class per run; a run every example spells the same stays literal. (pattern, flags)."""
    wide = _wide(matches)
    shapes = []
    for text in matches:
        parts: list[tuple[str, str]] = []
        for char in text:
            js = _run_class(char, wide)
            if js is not None and parts and parts[-1][0] == js:
                parts[-1] = (js, parts[-1][1] + char)
            else:
                parts.append((js or escape(char), char))
        shapes.append(parts)
    kinds = [[js for js, _ in shape] for shape in shapes]
    if any(k != kinds[0] for k in kinds) or len(kinds[0]) < 2:
        return None
    pattern = ""
    for position, (js, text) in enumerate(shapes[0]):
        same = all(shape[position][1] == text for shape in shapes)
        pattern += escape(text) if same and len(shapes) > 1 else js
    return pattern, "gu" if wide else "g"


def _literal(matches: list[str]) -> str:
    ordered = sorted(dict.fromkeys(matches), key=len, reverse=True)  # longest first: JS takes the first alternative
    return "(?:" + "|".join(escape(m) for m in ordered) + ")"


def score(pattern: str, flags: str, matches: list[str], non_matches: list[str]) -> dict[str, Any]:
    """How a pattern does on the examples: which match examples it finds whole, which no-match ones it leaves."""
    answer = engine.call({"op": "compile", "pattern": pattern, "flags": flags})
    if "error" in answer:
        return {"score": 0.0, "error": answer["error"]}
    missed, wrong = [], []
    for text in matches:
        every = flags if "g" in flags else flags + "g"
        found = engine.call({"op": "match", "pattern": pattern, "flags": every, "text": text, "max": 50})["matches"]
        if not any(m["match"] == text for m in found):
            missed.append(text)
    if non_matches:
        hits = engine.call({"op": "test", "pattern": pattern, "flags": flags.replace("g", ""), "texts": non_matches})[
            "results"
        ]
        wrong = [text for text, hit in zip(non_matches, hits) if hit]
    total = len(matches) + len(non_matches)
    right = total - len(missed) - len(wrong)
    return {
        "score": round(right / total, 4) if total else 0.0,
        "right": right,
        "of": total,
        "missed": missed,
        "wrongly_matched": wrong,
    }


def from_examples(matches: list[str], non_matches: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """{pattern, flags, find, how, score, candidates} built from the examples."""
    matches, non_matches = [m for m in matches if m], list(non_matches)
    if not matches:
        raise BunzaiError(
            "usage", "give at least one --match example", "e.g. bunzai regex-lab from-examples --match '*waves*'"
        )
    if len(matches) + len(non_matches) > limits.REGEX_EXAMPLES_MAX:
        raise BunzaiError(
            "too_large",
            f"{len(matches) + len(non_matches)} examples, over {limits.REGEX_EXAMPLES_MAX}",
            "give fewer, more varied examples",
        )
    wrapped, literal = _wrapped(matches), _literal(matches)
    built = [("wrapped", wrapped and (wrapped, "g")), ("shape", _shape(matches)), ("literal", (literal, "g"))]
    rows = []
    for how, candidate in built:
        if candidate is None:
            continue
        pattern, flags = candidate
        rows.append(
            {
                "how": how,
                "pattern": pattern,
                "flags": flags,
                "find": f"/{pattern}/{flags}",
                **score(pattern, flags, matches, non_matches),
            }
        )
    best = max(rows, key=lambda row: row["score"])  # max keeps the first (most general) of equals
    return {**best, "candidates": rows}
