"""`explain`: a pattern in plain words, clause by clause, with what its flags do."""

from __future__ import annotations

from typing import Any

from bunzai.regexlab import engine, syntax
from bunzai.regexlab.lab import parse_find

FLAG_WORDS = {
    "g": "global: every match is found and replaced, not only the first",
    "i": "ignore case: letters match in either case",
    "m": "multiline: ^ and $ match at the start and end of each line",
    "s": "dotAll: . also matches line breaks",
    "u": "unicode: the pattern reads whole code points and \\p{...} properties",
    "v": "unicodeSets: unicode, plus set operations and strings in classes",
    "y": "sticky: a match must start exactly where the previous one ended",
    "d": "indices: match positions are recorded (no effect on a replacement)",
}


def explain_pattern(find: str, *, platform: str = "javascript", flags: str | None = None) -> dict[str, Any]:
    """{pattern, flags, compiles, error?, group_count, group_names, clauses, flag_meanings}."""
    parsed = parse_find(find, platform, flags)
    pattern, used = parsed["pattern"], parsed["flags"]
    answer = engine.call({"op": "compile", "pattern": pattern, "flags": used})
    result: dict[str, Any] = {
        "platform": platform,
        "pattern": pattern,
        "flags": used,
        "compiles": "error" not in answer,
    }
    if "error" in answer:
        result["error"] = answer["error"]
    else:
        result["group_count"] = answer["groups"]["count"]
        result["group_names"] = answer["groups"]["names"]
    try:
        result["clauses"] = syntax.clauses(syntax.parse(pattern))
    except syntax.PatternSyntaxError as error:
        result["clauses"] = []
        result["unreadable"] = str(error)
    result["flag_meanings"] = {flag: FLAG_WORDS.get(flag, "not a JavaScript flag") for flag in used}
    return result
