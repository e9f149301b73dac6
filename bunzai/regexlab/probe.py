"""Probing a pattern where regex content enters bunzai: does it compile, does it run out of
time on a probe? Answers are warnings, never refusals: a stored rule is the user's to keep.

`rule_problems` is the one check (lint uses it too); `pattern_probe_warnings` words it
for a capability draft; `piece_probe_warnings` walks a whole piece (an import's proposal).
Each run is bounded by REGEX_PROBE_SECONDS (or the caller's seconds), and one piece by
REGEX_PROBE_MAX_RULES rules.
"""

from __future__ import annotations

import re
import time
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.regexlab import engine, syntax

# A message as roleplay rules meet it: narration in asterisks, speech, a thought, markup,
# a tracker block, line breaks and non-ASCII letters. Sound patterns scan it in microseconds.
PROBE_TEXT = (
    '*She glances at the door, then back at you.* "Are you sure?" she asks. (I hope so.)\n'
    '<div class="status"><b>HP:</b> 12/20 — Mood: wary</div>\n'
    "[OOC: keep it short] `code` **bold** _italic_ ~~gone~~ — café, naïve, 東京, 🙂\n"
) * 8


def confirm_backtracking(
    pattern: str, flags: str, *, seconds: float, tries: int, deadline: float | None = None
) -> dict[str, Any] | None:
    """A crafted input on which the pattern runs out of time, or None when none was found.

    Only patterns with the nested-quantifier shape are tried: the input repeats a sample of
    the inner group REGEX_PUMP_REPEATS times after what precedes it, then ends in a
    character that makes the match fail, so the engine tries every way to split the repeats.
    """
    try:
        tree = syntax.parse(pattern)
    except syntax.PatternSyntaxError:
        return None
    tried = 0
    for node in syntax.nested_quantifiers(tree):
        prefix = "".join(syntax.sample_of(item, 0, {}) for item in syntax.prefix_of(tree, node))
        pumps = syntax.samples(node.children[0].children[0], 3) + ["a", "0", " ", "aa "]
        for pump in dict.fromkeys(p for p in pumps if p):
            for tail in ("!", "\u0000"):
                if tried >= tries or (deadline is not None and time.monotonic() > deadline):
                    return None
                tried += 1
                text = prefix + pump * limits.REGEX_PUMP_REPEATS + tail
                try:
                    engine.call({"op": "test", "pattern": pattern, "flags": flags, "texts": [text]}, seconds=seconds)
                except BunzaiError as error:
                    if error.code == "regex_timeout":
                        return {"clause": node.text, "input": text, "seconds": seconds}
                    raise
    return None


_MACRO = re.compile(r"\{\{[^{}]*\}\}")


def macros_as_words(pattern: str) -> str:
    """The pattern with each {{macro}} standing for a plain word, as an expanded value would."""
    return _MACRO.sub("macro", pattern)


def rule_problems(
    pattern: str,
    flags: str,
    *,
    substitute: str = "none",
    seconds: float = limits.REGEX_PROBE_SECONDS,
    tries: int = 3,
    deadline: float | None = None,
) -> list[dict[str, Any]]:
    """[{kind: does_not_compile|out_of_time|catastrophic_backtracking, message, ...}] for one pattern.

    A pattern whose macros are expanded before it runs (`substitute` raw or escaped) is
    probed with each `{{macro}}` standing for a plain word, as a value would.
    """
    if substitute in ("raw", "escaped"):
        pattern = macros_as_words(pattern)
    if not pattern:
        return []
    try:
        answer = engine.call({"op": "compile", "pattern": pattern, "flags": flags})
    except BunzaiError as error:
        if error.code == "too_large":
            return [{"kind": "does_not_compile", "message": error.message}]
        raise
    if "error" in answer:
        return [{"kind": "does_not_compile", "message": f"does not compile in JavaScript: {answer['error']}"}]
    try:
        engine.call({"op": "test", "pattern": pattern, "flags": flags, "texts": [PROBE_TEXT]}, seconds=seconds)
    except BunzaiError as error:
        if error.code != "regex_timeout":
            raise
        return [
            {
                "kind": "out_of_time",
                "message": f"ran out of time ({seconds:g} s) on a {len(PROBE_TEXT)}-character probe message",
            }
        ]
    found = confirm_backtracking(pattern, flags, seconds=seconds, tries=tries, deadline=deadline)
    if found:
        return [
            {
                "kind": "catastrophic_backtracking",
                "message": f"backtracks catastrophically: {found['clause']} nests quantifiers, and a crafted "
                f"{len(found['input'])}-character input ran out of time ({seconds:g} s)",
                "input": found["input"],
            }
        ]
    return []


def pattern_probe_warnings(pattern: str, flags: str, what: str, substitute: str = "none") -> list[str]:
    """The problems of one rule's pattern as draft warnings (`what` names the rule)."""
    return [
        f"{what}: the pattern {problem['message']}" for problem in rule_problems(pattern, flags, substitute=substitute)
    ]


def piece_probe_warnings(piece: dict) -> list[str]:
    """Warnings for every rule pattern of a canonical regex piece (JSON form); [] for other kinds.

    Bounded: at most REGEX_PROBE_MAX_RULES rules are probed, the rest named as not probed.
    """
    if not isinstance(piece, dict) or piece.get("kind") != "regex":
        return []
    rules = [rule for rule in (piece.get("body") or {}).get("rules") or [] if isinstance(rule, dict)]
    warnings: list[str] = []
    deadline = time.monotonic() + limits.REGEX_LINT_BUDGET_SECONDS
    for index, rule in enumerate(rules[: limits.REGEX_PROBE_MAX_RULES]):
        what = f"rule {rule.get('name') or rule.get('id') or index!r}"
        if time.monotonic() > deadline:
            warnings.append(
                f"rules from {index} on were not probed (time budget of {limits.REGEX_LINT_BUDGET_SECONDS:g} s spent)"
            )
            break
        warnings += [
            f"{what}: the pattern {problem['message']}"
            for problem in rule_problems(
                str(rule.get("pattern") or ""),
                str(rule.get("flags") or ""),
                substitute=str(rule.get("substitute_macros") or "none"),
                deadline=deadline,
            )
        ]
    if len(rules) > limits.REGEX_PROBE_MAX_RULES:
        warnings.append(
            f"{len(rules) - limits.REGEX_PROBE_MAX_RULES} rules past the first "
            f"{limits.REGEX_PROBE_MAX_RULES} were not probed"
        )
    return warnings
