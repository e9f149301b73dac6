"""`regex-from-drawing`: an HTML drawing turned into a regex replacement ("design once, render
always"): the rule finds a pattern in the chat and draws the markup in its place.

The markup is flattened to one line (a line break in a replacement would become a paragraph
break in a chat message), every literal `$` is doubled (JavaScript's replacement escape),
and each declared slot, written `{{slot::NAME}}` or `{{NAME}}` in the markup, becomes its
capture reference: `$01`...`$99` (two digits, so markup like `$1` + `0px` cannot read as
group 10) or `$&` for slot 0. On SillyTavern, whose replacement has no escape, `$` is kept
as written, slot 0 is `{{match}}`, a reference followed by a digit is closed with `{{noop}}`
(SillyTavern reads every digit after `$`, and expands `{{noop}}` to nothing after filling the
captures), and a `$` the engine would read as a reference is named.
A slot past the pattern's capture count is refused, naming it. With a sample, the pair is
run in the engine, and a pattern that matches nothing in the sample is a failure.
"""

from __future__ import annotations

import re
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.regexlab import engine
from bunzai.regexlab.lab import check_platform, parse_find, rule_request

_BETWEEN_TAGS = re.compile(r">\s*\n\s*<")
_LINE_BREAK = re.compile(r"\s*\n\s*")


def flatten(markup: str) -> str:
    """The markup on one line: breaks between tags vanish, breaks inside text become a space."""
    text = markup.replace("\r\n", "\n").replace("\r", "\n").strip()
    return _LINE_BREAK.sub(" ", _BETWEEN_TAGS.sub("><", text))


def _reference(number: int, platform: str) -> str:
    if platform == "sillytavern":
        return "{{match}}" if number == 0 else f"${number}"
    return "$&" if number == 0 else f"${number:02d}"


def _closed(reference: str, found: re.Match) -> str:
    """A SillyTavern `$N` that a digit follows, closed so that the digit is not read into N."""
    following = found.string[found.end() : found.end() + 1]
    return reference + "{{noop}}" if following and following in "0123456789" else reference


def regex_from_drawing(
    markup: str,
    find: str,
    slots: dict[str, int],
    *,
    sample: str | None = None,
    platform: str = "javascript",
    flags: str | None = None,
    name: str = "drawing",
    declared: list[str] | tuple[str, ...] = (),
) -> dict[str, Any]:
    """{rules: [rule], warnings, sample?}: a rule ready for `regex.rules.add`, and the sample's run."""
    check_platform(platform)
    if len(markup.encode("utf-8", "surrogatepass")) > limits.DRAWING_MAX_BYTES:
        raise BunzaiError("too_large", f"the drawing is over {limits.DRAWING_MAX_BYTES} bytes", "draw a smaller piece")
    parsed = parse_find(find, platform, flags)
    pattern, used = parsed["pattern"], parsed["flags"]
    compiled = engine.compiled_or_refuse(
        engine.call({"op": "compile", "pattern": pattern, "flags": used}), pattern, used
    )
    count = compiled["groups"]["count"]
    for slot, number in slots.items():
        if number < 0 or number > count:
            raise BunzaiError(
                "invalid_input",
                f"slot {slot!r} is capture {number}, but the pattern {engine.shown(pattern, used)} has "
                f"{count} capture group{'s' if count != 1 else ''}",
                f"give {slot} a number from 0 (the whole match) to {count}",
                slot=slot,
                capture=number,
            )
    flat = flatten(markup)
    warnings: list[str] = []
    if platform == "sillytavern":
        replacement = flat
        if re.search(r"\$(\d|<)", flat):
            warnings.append(
                "the drawing holds $ before a digit or <, which SillyTavern reads as a capture reference "
                "(its replacements have no escape); write it as &#36; instead"
            )
    else:
        replacement = flat.replace("$", "$$")
        if platform == "risuai":  # RisuAI turns every $n into a line break first; {{blank}} is nothing
            replacement = replacement.replace("$$n", "$${{blank}}n")
    for slot, number in slots.items():
        spelled = re.compile(r"\{\{\s*(?:slot::\s*)?" + re.escape(slot) + r"\s*\}\}")
        if not spelled.search(replacement):
            raise BunzaiError(
                "invalid_input",
                f"slot {slot!r} is not in the drawing",
                f"write it in the markup as {{{{slot::{slot}}}}} or {{{{{slot}}}}}",
                slot=slot,
            )
        reference = _reference(number, platform)
        if platform == "sillytavern":  # {{match}} is $0 there: a digit after it joins it too
            replacement = spelled.sub(lambda found, reference=reference: _closed(reference, found), replacement)
        else:
            replacement = spelled.sub(lambda _, reference=reference: reference, replacement)
    unfilled = [slot for slot in declared if slot not in slots]
    if unfilled:
        warnings.append(f"declared slots without a capture: {', '.join(unfilled)} (they stay as written)")
    rule = {
        "name": name,
        "pattern": pattern,
        "flags": used,
        "replacement": replacement,
        "placements": ["ai_output"],
        "markdown_only": True,
    }
    # else RisuAI adds a line break after the drawing; the token also puts the rule on its test-first path
    tokens = ["no_end_nl"] if platform == "risuai" and replacement.endswith(">") else []
    if tokens:
        rule["extensions"] = {"risuai": {"flag_tokens": tokens}}
    result: dict[str, Any] = {"rules": [rule], "warnings": warnings}
    if sample is not None:
        request = rule_request(pattern, used, replacement=replacement, platform=platform, actions=tokens)
        found = engine.call(dict(request, op="match", text=sample, max=limits.REGEX_MATCHES_SHOWN))
        if found["total"] == 0:
            raise BunzaiError(
                "regex_no_match",
                f"the pattern {engine.shown(pattern, used)} matched nothing in the sample",
                "the rule would never draw: fix the pattern or give a sample it should match",
                sample=sample[:200],
            )
        result["sample"] = {
            "text": sample,
            "matches": found["total"],
            "result": engine.call(dict(request, op="replace", text=sample))["result"],
        }
    return result
