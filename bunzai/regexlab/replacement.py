"""A regex rule's replacement carried between SillyTavern's and RisuAI's readings of it.

The two platforms read the same replacement text differently:

- SillyTavern (public/scripts/extensions/regex/engine.js) turns `{{match}}` into `$0`, fills
  every `$N` (all the digits after `$`; 0 is the whole match) and `$<name>` with the capture,
  nothing when it is absent, leaves every other `$` as written, then expands macros.
- RisuAI (src/ts/process/scripts.ts) turns each `$n` into a line break, adds one after an OUT
  ending in `>` (unless the rule carries the `no_end_nl` flag token), then hands OUT to
  JavaScript's `String.prototype.replace`: `$$`, `$&`, `` $` ``, `$'`, `$N`/`$NN` and
  `$<name>` are JavaScript's, and any other `$` is itself.

`translate` rewrites one text so the target platform draws what the source platform drew.
A token the target cannot express is reported (`lost`) and removed. SillyTavern has no
escape for a `$` before a digit or `<`: it is written `${{noop}}`, which its macros turn
back into `$` after the captures are filled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bunzai.regexlab import syntax

_NOOP = "{{noop}}"
_DIGITS = "0123456789"
_ST_MATCH = re.compile(r"\{\{match\}\}", re.IGNORECASE)
_ST_TOKEN = re.compile(r"\$(\d+)|\$<([^>]+)>|\$")
_JS_TOKEN = re.compile(r"(\{\{(?i:match)\}\})|\$(?:(\$)|(&)|(`)|(')|(\d\d?)|<([^>]*)>)|\$")
_REFERENCE_END = re.compile(r"(?:\$\d+|\{\{match\}\})$")  # SillyTavern: {{match}} is $0, digits join it


@dataclass
class Carried:
    """The replacement as the target reads it, and what happened to each token on the way."""

    text: str
    verdicts: list[dict] = field(default_factory=list)  # {verdict: translated|lost, token, at, to?|note?}
    needs_no_end_newline: bool = False  # SillyTavern -> RisuAI: the rule needs the no_end_nl flag token


def convention_of(engine: str | None) -> str:
    """The replacement convention text written for an engine follows (SillyTavern's unless RisuAI's)."""
    return "risuai" if engine == "risuai" else "sillytavern"


def capture_count(pattern: str) -> int:
    """The pattern's numbered captures; 99 when bunzai cannot parse it (every reference may exist)."""
    try:
        tree = syntax.parse(pattern)
    except (syntax.PatternSyntaxError, RecursionError):
        return 99
    return sum(1 for node in syntax.walk(tree) if node.kind == "group" and node.group in ("capture", "named"))


def translate(text: str, source: str, target: str, groups: int, *, no_end_newline: bool = False) -> Carried:
    """`text` written for `source` rewritten for `target` (each 'sillytavern' or 'risuai'). `groups` is the
    pattern's capture count: JavaScript reads `$12` by it, and SillyTavern's `$5` past it is nothing.
    `no_end_newline`: the RisuAI rule carries the `no_end_nl` flag token."""
    if source == target:
        return Carried(text)
    if source == "sillytavern":
        return _st_to_js(text, groups)
    return _js_to_st(text, groups, no_end_newline)


def _st_to_js(written: str, groups: int) -> Carried:
    carried = Carried("")
    # SillyTavern turns {{match}} into $0 first, so digits after it join the number ({{match}}5 is $05)
    text = _ST_MATCH.sub("$0", written)
    out: list[str] = []
    at = 0
    for found in _ST_TOKEN.finditer(text):
        out.append(text[at : found.start()])
        at = found.end()
        token, number, name = found.group(0), found.group(1), found.group(2)
        if number is not None and int(number) == 0:
            written = "$&"
        elif number is not None and int(number) > groups:
            written = ""  # SillyTavern fills a capture the pattern lacks with nothing
        elif number is not None and int(number) <= 99:
            written = f"${int(number):02d}"  # two digits: a digit after it cannot join the number
        elif number is not None:
            carried.verdicts.append(_lost(token, found.start(), "JavaScript refers to captures 1 to 99 only"))
            continue
        elif name is not None:
            written = token
        else:  # a $ SillyTavern leaves as written
            written = "$$"
        out.append(written)
        if written != token:
            carried.verdicts.append(_translated(token, found.start(), written))
    out.append(text[at:])
    joined = "".join(out)
    while "$$n" in joined:  # RisuAI turns every "$n" into a line break first: no spelling keeps it
        carried.verdicts.append(_lost("$", max(text.find("$"), 0), "RisuAI reads every $n as a line break"))
        joined = joined.replace("$$n", "n", 1)
    carried.text = joined
    carried.needs_no_end_newline = joined.endswith(">")
    return carried


def _js_to_st(text: str, groups: int, no_end_newline: bool) -> Carried:
    carried = Carried("")
    source = text.replace("$n", "\n")
    if source != text:
        carried.verdicts.append({"verdict": "translated", "token": "$n", "at": text.index("$n"), "to": "\n"})
    if source.endswith(">") and not no_end_newline:
        source += "\n"
        note = "RisuAI adds a line break after an OUT that ends in >"
        carried.verdicts.append({"verdict": "translated", "token": ">", "at": len(text) - 1, "to": ">\n", "note": note})
    out: list[str] = []
    at = 0
    for found in _JS_TOKEN.finditer(source):
        _append_literal(out, source[at : found.start()])
        at = found.end()
        token = found.group(0)
        match_macro, dollar, amp, before, after, number, name = found.groups()
        if match_macro:  # RisuAI shows it as written; SillyTavern would read the whole match
            carried.verdicts.append(_lost(token, found.start(), "SillyTavern reads {{match}} as the whole match"))
            continue
        if amp:
            written = "{{match}}"
        elif before or after:
            why = "SillyTavern has no reference to the text before or after the match"
            carried.verdicts.append(_lost(token, found.start(), why))
            continue
        elif number is not None:
            written = _js_number(number, groups)
        elif name is not None:
            written = token
        else:  # "$$" or a lone "$": a literal dollar
            written = "$" + _NOOP if _digit_at(source, at) or source.startswith("<", at) else "$"
        out.append(written)
        if written != token:
            carried.verdicts.append(_translated(token, found.start(), written))
    _append_literal(out, source[at:])
    carried.text = "".join(out)
    return carried


def _append_literal(out: list[str], text: str) -> None:
    """Text SillyTavern shows as written, after what is written so far: a `$` before a digit or
    `<` is closed with {{noop}}, and so is a reference written just before a digit."""
    if text[:1] in _DIGITS and text and out and _REFERENCE_END.search(out[-1]):
        out.append(_NOOP)
    out.append(re.sub(r"\$(?=[\d<])", "$" + _NOOP, text))


def _js_number(number: str, groups: int) -> str:
    """`$N` or `$NN` as JavaScript reads it against `groups` captures, spelled for SillyTavern."""
    if len(number) == 2 and 1 <= int(number) <= groups:
        return f"${int(number)}"
    if 1 <= int(number[0]) <= groups:
        rest = number[1:]
        return f"${number[0]}" + (_NOOP + rest if rest else "")
    return "$" + _NOOP + number  # no such capture: JavaScript leaves it as written


def _digit_at(text: str, index: int) -> bool:
    return index < len(text) and text[index] in _DIGITS


def _translated(token: str, at: int, to: str) -> dict:
    return {"verdict": "translated", "token": token, "at": at, "to": to}


def _lost(token: str, at: int, note: str) -> dict:
    return {"verdict": "lost", "token": token, "at": at, "note": note}
