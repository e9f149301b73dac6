"""A regex rule's replacement carried between SillyTavern's and RisuAI's readings of it.

The two platforms read the same replacement text differently:

- SillyTavern (public/scripts/extensions/regex/engine.js) turns `{{match}}` into `$0`, fills
  every `$N` (all the digits after `$`; 0 is the whole match) and `$<name>` with the capture,
  nothing when it is absent, leaves every other `$` as written, then expands macros.
- RisuAI (src/ts/process/scripts.ts) turns each `$n` into a line break, adds one after an OUT
  ending in `>` (unless the rule carries the `no_end_nl` flag token), then hands OUT to
  JavaScript's `String.prototype.replace`: `$$`, `$&`, `` $` ``, `$'`, `$N`/`$NN` and
  `$<name>` are JavaScript's, and any other `$` is itself.

`translate` rewrites one text so the target platform draws what the source platform drew
(once its macros are spelled for the target).
A token the target cannot express is reported (`lost`) and removed. Neither has an escape
for everything, so a macro that expands to nothing stands between characters: `{{noop}}`
after a `$` that is no reference (`${{noop}}5`), and inside a literal `$n` for RisuAI
(`$${{noop}}n`); it expands after the captures are filled. Only the replacement's own syntax
is respelled here: its macros, the spacer with them, are left in SillyTavern's spelling, as
the crossing translates them from SillyTavern after this (bunzai.convert), so `{{noop}}`
reaches RisuAI as `{{blank}}` and the macro report knows it. SillyTavern fills
`$N` past the pattern's captures from its replace callback's other arguments: the match
position, then the whole text, then the named groups (or nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bunzai.regexlab import syntax

_NOOP = "{{noop}}"
_DIGITS = "0123456789"
_ST_MATCH = re.compile(r"\{\{match\}\}", re.IGNORECASE)
_ST_NOOP = re.compile(r"\{\{noop\}\}", re.IGNORECASE)
_ST_TOKEN = re.compile(r"\$(\d+)|\$<([^>]+)>|\$|\{\{noop\}\}", re.IGNORECASE)
_JS_AFTER_DOLLAR = "$&`'<0123456789"  # what makes a $ special in JavaScript's replace
_JS_TOKEN = re.compile(r"(\{\{(?i:match|noop)\}\})|\$(?:(\$)|(&)|(`)|(')|(\d\d?)|<([^>]*)>)|\$")
# Without named groups JavaScript reads "$<" as itself (the name form is not tried).
_JS_TOKEN_UNNAMED = re.compile(
    r"(\{\{(?i:match|noop)\}\})|\$(?:(\$)|(&)|(`)|(')|(\d\d?)|(?!)(.))|\$"
)  # (.) never takes part
_LITERAL_DOLLAR = re.compile(r"\$(?=[\d<])")  # a $ SillyTavern would read as a reference
_REFERENCE_END = re.compile(r"(?:\$\d+|\{\{match\}\})$")  # SillyTavern: {{match}} is $0, digits join it


@dataclass
class Carried:
    """The replacement as the target reads it, and what happened to each token on the way."""

    text: str
    verdicts: list[dict] = field(default_factory=list)  # {verdict: translated|lost, token, at, to?|note?}


@dataclass(frozen=True)
class Captures:
    count: int  # numbered captures (named ones count too)
    named: bool  # the pattern has a named group


def convention_of(engine: str | None) -> str:
    """The replacement convention text written for an engine follows (SillyTavern's unless RisuAI's)."""
    return "risuai" if engine == "risuai" else "sillytavern"


def captures(pattern: str) -> Captures:
    """The pattern's captures; every reference may exist (99, named) when bunzai cannot parse it."""
    try:
        groups = [node for node in syntax.walk(syntax.parse(pattern)) if node.kind == "group"]
    except syntax.PatternSyntaxError:
        return Captures(99, True)
    kinds = [node.group for node in groups]
    return Captures(sum(kind in ("capture", "named") for kind in kinds), "named" in kinds)


def translate(text: str, source: str, target: str, found: Captures, *, no_end_newline: bool = False) -> Carried:
    """`text` written for `source` rewritten for `target` (each 'sillytavern' or 'risuai'), for a
    pattern with these captures. `no_end_newline`: the RisuAI rule carries the `no_end_nl` token."""
    if source == target:
        return Carried(text)
    if source == "sillytavern":
        return _st_to_js(text, found)
    return _js_to_st(text, found, no_end_newline)


def _st_to_js(written: str, found: Captures) -> Carried:
    carried = Carried("")
    # SillyTavern turns {{match}} into $0 first, so digits after it join the number ({{match}}5 is $05)
    text = _ST_MATCH.sub("$0", written)
    out: list[str] = []
    at = 0
    for token_match in _ST_TOKEN.finditer(text):
        out.append(text[at : token_match.start()])
        at = token_match.end()
        token, number, name = token_match.group(0), token_match.group(1), token_match.group(2)
        if token.startswith("{{"):  # {{noop}}: SillyTavern's own spacer, nothing once the $ is respelled
            spelled = ""
        elif number is not None:
            spelled = _st_number(int(number), found)
            if spelled is None:
                why = _ST_PAST.get(int(number) - found.count, "")
                carried.verdicts.append(_lost(token, token_match.start(), why))
                continue
        elif name is not None:
            spelled = token if found.named else ""  # no named groups: SillyTavern fills nothing
        else:  # a $ SillyTavern leaves as written: JavaScript needs $$ only where a $-form would start
            following = _ST_NOOP.sub("", text[at : at + 40])[:1]
            if following == "n":  # RisuAI turns every "$n" into a line break before the replace
                spelled = "$$" + _NOOP  # SillyTavern's spelling: the macro translation that follows makes it {{blank}}
            else:
                spelled = "$$" if following and following in _JS_AFTER_DOLLAR else "$"
        out.append(spelled)
        if spelled != token:
            carried.verdicts.append(_translated(token, token_match.start(), spelled))
    out.append(text[at:])
    carried.text = "".join(out)
    return carried


_ST_PAST = {
    1: "SillyTavern fills it with the match position",
    3: "SillyTavern fails on it (its replace callback hands it the named groups object)",
}


def _st_number(number: int, found: Captures) -> str | None:
    """SillyTavern's `$N` spelled for JavaScript; None where JavaScript cannot say it."""
    if number == 0:
        return "$&"
    if number <= found.count:
        return f"${number:02d}" if number <= 99 else None  # two digits: a digit after it cannot join
    past = number - found.count
    if past == 2:
        return "$`$&$'"  # the replace callback's whole-text argument
    if past == 1 or past == 3 and found.named:
        return None
    return ""  # nothing there: SillyTavern fills nothing


def _js_to_st(text: str, found: Captures, no_end_newline: bool) -> Carried:
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
    for token_match in (_JS_TOKEN if found.named else _JS_TOKEN_UNNAMED).finditer(source):
        _append_literal(out, source[at : token_match.start()])
        at = token_match.end()
        token = token_match.group(0)
        match_macro, dollar, amp, before, after, number, name = token_match.groups()
        if match_macro:  # RisuAI shows it as written; SillyTavern would read the whole match
            why = "SillyTavern reads it as its own ({{match}} the whole match, {{noop}} nothing)"
            carried.verdicts.append(_lost(token, token_match.start(), why))
            continue
        if amp:
            spelled = "{{match}}"
        elif before or after:
            why = "SillyTavern has no reference to the text before or after the match"
            carried.verdicts.append(_lost(token, token_match.start(), why))
            continue
        elif number is not None:
            spelled = _js_number(number, found.count)
        elif name is not None:  # SillyTavern reads a named group too (nothing for an empty name, as JavaScript)
            spelled = token if name else ""
        else:  # "$$" or a lone "$": a literal dollar
            spelled = "$" + _NOOP if _digit_at(source, at) or source.startswith("<", at) else "$"
        out.append(spelled)
        if spelled != token:
            carried.verdicts.append(_translated(token, token_match.start(), spelled))
    _append_literal(out, source[at:])
    carried.text = "".join(out)
    return carried


def _append_literal(out: list[str], text: str) -> None:
    """Text SillyTavern shows as written, after what is written so far: a `$` before a digit or
    `<` is closed with {{noop}}, and so is a reference written just before a digit."""
    if text[:1] in _DIGITS and text and out and _REFERENCE_END.search(out[-1]):
        out.append(_NOOP)
    out.append(_LITERAL_DOLLAR.sub("$" + _NOOP, text))


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
