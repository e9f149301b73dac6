"""The Handlebars layer of a SillyTavern context template's story string.

SillyTavern compiles the story string with Handlebars (noEscape), passing parameters
(description, personality, persona, scenario, system, char, user, wiBefore/loreBefore,
wiAfter/loreAfter, mesExamples, mesExamplesRaw, anchorBefore, anchorAfter), then runs the
result through its macro engine. Story strings use a small part of Handlebars:
`{{#if p}}…{{else}}…{{/if}}`, `{{#unless p}}…{{/unless}}`, `{{p}}` and `{{trim}}`.

That subset is written here rather than taken from a Handlebars library: in SillyTavern a
token Handlebars does not know (`{{getvar::x}}`, `{{random::a::b}}`, `{{// note}}`) is left for
the macro engine, while a full Handlebars implementation would refuse the `::` syntax or
render unknown names as empty, hiding exactly the macros `preset-verify` must report. So
only parameter names and the block helpers are read; every other token is left as written
for bunzai.render.macro_eval.
"""

from __future__ import annotations

import re

PARAMS = (
    "description",
    "personality",
    "persona",
    "scenario",
    "system",
    "char",
    "user",
    "wiBefore",
    "loreBefore",
    "wiAfter",
    "loreAfter",
    "mesExamples",
    "mesExamplesRaw",
    "anchorBefore",
    "anchorAfter",
)
_TAG = re.compile(r"\{\{\s*(#if|#unless|else|/if|/unless)\s*([A-Za-z_][\w]*)?\s*\}\}|\{\{\s*([A-Za-z_]\w*)\s*\}\}")


def render_story_string(template: str, params: dict[str, str]) -> str:
    """The story string with its block helpers and parameters resolved; other tokens kept."""
    out, _ = _render(template, 0, params, None)
    return out.lstrip("\n")


def _render(text: str, pos: int, params: dict[str, str], closing: str | None) -> tuple[str, int]:
    """Render from `pos` until the `closing` tag (or the end); (text, position after it)."""
    pieces: list[str] = []
    while True:
        match = _TAG.search(text, pos)
        if match is None:
            pieces.append(text[pos:])
            return "".join(pieces), len(text)
        pieces.append(text[pos : match.start()])
        tag, name, plain = match.group(1), match.group(2), match.group(3)
        if plain is not None:
            if plain in params:
                pieces.append(params[plain])
            else:
                pieces.append(match.group(0))  # a macro: the macro engine's
            pos = match.end()
            continue
        if tag in ("#if", "#unless"):
            then_part, stop, else_part, pos = _branches(text, match.end(), params)
            truthy = bool((params.get(name or "") or "").strip())
            if tag == "#unless":
                truthy = not truthy
            pieces.append(then_part if truthy else else_part)
            continue
        # else or a closer belonging to the caller
        if closing is not None:
            return "".join(pieces), match.start()
        pieces.append(match.group(0))
        pos = match.end()


def _branches(text: str, pos: int, params: dict[str, str]) -> tuple[str, str, str, int]:
    then_part, stop = _render(text, pos, params, "block")
    else_part = ""
    match = _TAG.match(text, stop)
    if match and match.group(1) == "else":
        else_part, stop = _render(text, match.end(), params, "block")
        match = _TAG.match(text, stop)
    end = match.end() if match else len(text)
    return then_part, stop, else_part, end
