"""Checks on JavaScript regex source held as data. Nothing here compiles or runs a pattern.

The flags are checked against JavaScript's own rules; the pattern text is only looked at
for shapes known to backtrack catastrophically (a quantified group that itself ends in a
quantifier, like `(a+)+` or `(.*)*`), which earns a warning, never a refusal.
"""

from __future__ import annotations

import re

from bunzai.capabilities.common.patching import refuse

JS_FLAGS = "dgimsuvy"
# A group whose body holds an unescaped + or *, directly followed by +, * or {n,}:
# the nested-quantifier shape behind most catastrophic backtracking.
_NESTED_QUANTIFIER = re.compile(
    r"\((?:[^()\\]|\\.)*(?<!\\)[+*](?:[^()\\]|\\.)*\)[+*]|\((?:[^()\\]|\\.)*(?<!\\)[+*]\)\{\d+,\}"
)


def check_flags(flags: str, what: str) -> None:
    """Refuse flags JavaScript would refuse: unknown letters, repeats, `u` with `v`."""
    unknown = sorted(set(flags) - set(JS_FLAGS))
    if unknown:
        raise refuse(
            f"{what}: {''.join(unknown)!r} is not a JavaScript regex flag", f"flags are letters of {JS_FLAGS!r}"
        )
    repeated = sorted({flag for flag in flags if flags.count(flag) > 1})
    if repeated:
        raise refuse(f"{what}: flag {''.join(repeated)!r} is given twice", "give each flag once, e.g. 'gi'")
    if "u" in flags and "v" in flags:
        raise refuse(f"{what}: flags 'u' and 'v' cannot be used together", "keep one of them")


def pattern_warnings(pattern: str, what: str) -> list[str]:
    """Warnings about a pattern's text: empty, slash-wrapped, or catastrophic-looking."""
    warnings = []
    if not pattern:
        warnings.append(f"{what}: the pattern is empty")
    elif len(pattern) > 1 and pattern.startswith("/") and re.search(r"/[dgimsuvy]*$", pattern[1:]):
        warnings.append(
            f"{what}: the pattern looks wrapped in slashes; give the source without them and the flags apart"
        )
    if _NESTED_QUANTIFIER.search(pattern):
        warnings.append(f"{what}: the pattern nests quantifiers (like (a+)+), which can backtrack catastrophically")
    return warnings
