"""Running patterns the way a platform does: `try` (matches and the replaced text) and `race`
(several candidates over one text, side by side).

A find-regex is read as its platform reads it:

- `javascript`: `/pattern/flags` is a literal; anything else is a bare pattern with no flags.
- `sillytavern`: SillyTavern's reading (`/(\\/?)(.+)\\1([a-z]*)/i`): a bare pattern gets no
  flags, so it is case-sensitive and replaces the first match only; unknown or repeated flags
  make it compile the whole string.
- `risuai`: the text is the pattern (RisuAI stores IN without slashes) with `g` unless
  flags are given (`u` for a replacement that moves its match: RisuAI drops that `g`).

`flags`, when given, overrides: the text is then a bare pattern with those flags. The
replacement follows the platform's convention (see prelude.js): SillyTavern's `{{match}}`,
`$N`/`$<name>` with trim strings and macros; RisuAI's native `$1`/`$&`/`$<name>`/`$$`;
plain JavaScript `String.prototype.replace`.
"""

from __future__ import annotations

import time
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.regexlab import engine

PLATFORMS = ("javascript", "sillytavern", "risuai")
SUBSTITUTE_MODES = ("none", "raw", "escaped")


def check_platform(platform: str) -> str:
    if platform not in PLATFORMS:
        raise BunzaiError(
            "invalid_input",
            f"{platform!r} is not a platform the regex lab models",
            f"platforms: {', '.join(PLATFORMS)}",
        )
    return platform


def parse_find(
    find: str, platform: str = "javascript", flags: str | None = None, replace: str | None = None
) -> dict[str, Any]:
    """{pattern, flags, whole} as the platform reads `find` (and a RisuAI script with no custom
    flags whose OUT is `replace`); `whole` when no /.../ was read."""
    check_platform(platform)
    if flags is not None:
        return {"pattern": find, "flags": flags, "whole": True}
    if platform == "risuai":
        return {"pattern": find, "flags": _risu_default_flags(replace or ""), "whole": True}
    return engine.call({"op": "parse", "platform": platform, "find": find})


_RISU_MOVES = ("@@move_top", "@@move_bottom")
# What a move does (its flags' first g dropped when RisuAI read them), as regex_scripts says it of <move_top>.
_MOVES = (
    "drops the flags' first g and moves the first match to a line of its own at the {where}; with a g left "
    "(gg), every match after the first instead, the first only taken out"
)


def _risu_default_flags(replace: str) -> str:
    """The flags RisuAI compiles a script with no custom flags with: `g`, less the `g` an OUT
    that moves drops, which leaves `u` (scripts.ts; the adapter's regex_scripts.parse_flag
    reads a script's own flag field so)."""
    return "u" if replace.startswith(_RISU_MOVES) else "g"


def rule_request(
    pattern: str,
    flags: str,
    *,
    replacement: str = "",
    platform: str = "javascript",
    trim_strings: list[str] | tuple[str, ...] = (),
    macros: dict[str, str] | None = None,
    substitute: str = "none",
    no_end_newline: bool = False,
    actions: list[str] | tuple[str, ...] = (),
) -> dict[str, Any]:
    """The engine's view of one rule (what prelude.js reads); `actions`: a RisuAI rule's flag
    tokens but `<order N>` (RisuAI's pscript.actions, regex_scripts.risu_actions): with any of
    them, as with an OUT starting `@@`, the rule takes RisuAI's test-first path."""
    if substitute not in SUBSTITUTE_MODES:
        raise BunzaiError(
            "invalid_input", f"{substitute!r} is not a macro substitution mode", f"modes: {', '.join(SUBSTITUTE_MODES)}"
        )
    return {
        "pattern": pattern,
        "flags": flags,
        "replacement": replacement,
        "convention": check_platform(platform),
        "trims": list(trim_strings),
        "macros": {k.lower(): v for k, v in (macros or {}).items()},
        "substitute": substitute,
        "noEndNewline": no_end_newline,
        "actions": list(actions),
    }


def try_pattern(
    find: str,
    text: str,
    *,
    replace: str | None = None,
    platform: str = "javascript",
    flags: str | None = None,
    trim_strings: list[str] | tuple[str, ...] = (),
    macros: dict[str, str] | None = None,
    substitute: str = "none",
    no_end_newline: bool = False,
    actions: list[str] | tuple[str, ...] = (),
) -> dict[str, Any]:
    """Every match of `find` in `text` (span, groups, named groups) and, with `replace`, the text after.
    `no_end_newline`: a RisuAI rule's `<no_end_nl>` (no newline after a replacement ending in `>`);
    `actions`: its flag tokens but `<order N>` (`move_top`, `cbs` ...), run as RisuAI runs them;
    `flags`, for RisuAI, are those it compiles (a move's `g` already dropped).

    Spans are code-point offsets into `text`. A pattern that does not compile is refused
    (`invalid_regex`); one that runs out of time is refused (`regex_timeout`).
    """
    parsed = parse_find(find, platform, flags, replace)
    request = rule_request(
        parsed["pattern"],
        parsed["flags"],
        replacement=replace or "",
        platform=platform,
        trim_strings=trim_strings,
        macros=macros,
        substitute=substitute,
        no_end_newline=no_end_newline,
        actions=actions,
    )
    found = engine.compiled_or_refuse(
        engine.call(dict(request, op="match", text=text, max=limits.REGEX_MATCHES_SHOWN)),
        parsed["pattern"],
        parsed["flags"],
    )
    result: dict[str, Any] = {
        "platform": platform,
        "pattern": found["pattern"],
        "flags": found["flags"],
        "group_count": found["groups"]["count"],
        "group_names": found["groups"]["names"],
        "count": found["total"],
        "matches": found["matches"],
    }
    if found["total"] > len(found["matches"]):
        result["matches_shown"] = len(found["matches"])
    notes = _notes(find, parsed, platform)
    if replace is not None:
        if platform == "risuai":
            notes += _risu_action_notes(replace)
        result["replacement"] = replace
        result["result"] = engine.call(dict(request, op="replace", text=text))["result"]
    if notes:
        result["notes"] = notes
    return result


# race and explain take no macro values: a RisuAI <cbs> pattern is run or read as written.
CBS_AS_WRITTEN = "<cbs> expands the pattern's macros first in RisuAI; here the pattern is taken as written"


def with_notes(result: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    """`result` with `notes` after its own (the CLI's and the MCP tool's notes on typed flags)."""
    if notes:
        result["notes"] = [*result.get("notes", []), *notes]
    return result


def _notes(find: str, parsed: dict[str, Any], platform: str) -> list[str]:
    notes = []
    if platform == "sillytavern" and parsed["whole"] and find.startswith("/") and len(find) > 1:
        notes.append("SillyTavern did not read flags here (unknown or repeated): the whole string is the pattern")
    if "g" not in parsed["flags"] and "y" not in parsed["flags"]:
        notes.append("no g flag: only the first match is replaced")
    return notes


# RisuAI's actions (a replacement starting with @@, scripts.ts): what each does besides the text.
_RISU_ACTIONS = (
    (
        "@@emo ",
        "RisuAI shows the emotion image named after @@emo when the pattern is found; the text is left as it was",
    ),
    ("@@inject", "RisuAI keeps the text in the chat message and takes the matches out of the text it goes on with"),
    ("@@move_top", "RisuAI " + _MOVES.format(where="top")),
    ("@@move_bottom", "RisuAI " + _MOVES.format(where="bottom")),
    (
        "@@repeat_back",
        "RisuAI repeats the pattern's match from the speaker's previous message when the text lacks it; "
        "the lab has no earlier message, so the text stays (a text that matches gets the replacement as written)",
    ),
)


def _risu_action_notes(replace: str) -> list[str]:
    out = replace.replace("$n", "\n")
    return [note for prefix, note in _RISU_ACTIONS if out.startswith(prefix)]


def race_patterns(
    finds: list[str],
    text: str,
    *,
    replace: str | None = None,
    platform: str = "javascript",
    flags: str | None = None,
    no_end_newline: bool = False,
    actions: list[str] | tuple[str, ...] = (),
) -> dict[str, Any]:
    """Several candidate patterns over one text: each one's matches, replaced text and time.

    A candidate that does not compile, runs out of time or that the platform itself fails on
    (SillyTavern, on a `$N` naming its named-groups object) is reported in its row, not
    refused: the race is for comparing. Times are wall-clock milliseconds of one run.
    """
    if not finds:
        raise BunzaiError("usage", "race needs at least one pattern", "e.g. bunzai regex-lab race 'a+' 'a*' --text aaa")
    if len(finds) > limits.REGEX_RACE_MAX_CANDIDATES:
        raise BunzaiError(
            "too_large", f"{len(finds)} candidates, over {limits.REGEX_RACE_MAX_CANDIDATES}", "race fewer at once"
        )
    rows = []
    for find in finds:
        started = time.perf_counter()
        try:
            tried = try_pattern(
                find,
                text,
                replace=replace,
                platform=platform,
                flags=flags,
                no_end_newline=no_end_newline,
                actions=actions,
            )
        except BunzaiError as error:
            # the platform failing on one candidate's replacement is a result of the race, like a timeout
            if error.code not in ("invalid_regex", "regex_timeout") and not error.details.get("platform_fails"):
                raise
            rows.append({"find": find, "error": {"code": error.code, "message": error.message}})
            continue
        elapsed = (time.perf_counter() - started) * 1000
        row = {
            "find": find,
            "count": tried["count"],
            "matches": [m["match"] for m in tried["matches"]],
            "ms": round(elapsed, 3),
        }
        if "result" in tried:
            row["result"] = tried["result"]
        rows.append(row)
    same = {
        row.get("result", None) if replace is not None else tuple(row.get("matches", ()))
        for row in rows
        if "error" not in row
    }
    return {"platform": platform, "text": text, "candidates": rows, "agree": len(same) <= 1}
