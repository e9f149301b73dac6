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
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.regexlab import engine

_SPECIAL = re.compile(r"[\\^$.*+?()[\]{}|/]")


def escape(text: str) -> str:
    """Text as a JavaScript pattern that matches it literally."""
    return _SPECIAL.sub(lambda m: "\\" + m.group(0), text).replace("\n", "\\n").replace("\t", "\\t")


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


_RUNS = [(re.compile(r"[^\W\d_]+"), "[^\\W\\d_]+"), (re.compile(r"\d+"), "\\d+"), (re.compile(r"[ \t]+"), "[ \\t]+")]


def _shape(matches: list[str]) -> str | None:
    """One class per run; a run every example spells the same stays literal."""
    shapes = []
    for text in matches:
        parts, index = [], 0
        while index < len(text):
            for run, js in _RUNS:
                found = run.match(text, index)
                if found:
                    parts.append((js, found.group(0)))
                    index = found.end()
                    break
            else:
                parts.append((escape(text[index]), text[index]))
                index += 1
        shapes.append(parts)
    kinds = [[js for js, _ in shape] for shape in shapes]
    if any(k != kinds[0] for k in kinds) or len(kinds[0]) < 2:
        return None
    pattern = ""
    for position, (js, text) in enumerate(shapes[0]):
        same = all(shape[position][1] == text for shape in shapes)
        pattern += escape(text) if same and len(shapes) > 1 else js
    return pattern


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
        found = engine.call({"op": "match", "pattern": pattern, "flags": "g", "text": text, "max": 50})["matches"]
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
    built = [("wrapped", _wrapped(matches)), ("shape", _shape(matches)), ("literal", _literal(matches))]
    rows = []
    for how, pattern in built:
        if pattern is None:
            continue
        rows.append(
            {
                "how": how,
                "pattern": pattern,
                "flags": "g",
                "find": f"/{pattern}/g",
                **score(pattern, "g", matches, non_matches),
            }
        )
    best = max(rows, key=lambda row: row["score"])  # max keeps the first (most general) of equals
    return {**best, "candidates": rows}
