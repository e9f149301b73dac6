"""Agnai's character persona: structured attributes or text, and the text it renders to.

Agnai keeps the persona as `{kind, attributes: {key: [values]}}` and renders it into the
prompt (and into a Tavern card's description) by its kind, as common/characters.ts
`formatCharacter` does. bunzai's `description` is that rendered text; the structured persona
stays in the escrow and is written back while it still renders to the description, which
is also the test Agnai applies to `extensions.agnai.persona` when it imports a V2 card.
"""

from __future__ import annotations

from typing import Any

STRUCTURED = ("wpp", "sbf", "boostyle", "attributes")


def _attributes(persona: dict) -> list[tuple[str, list[str]]]:
    raw = persona.get("attributes")
    if not isinstance(raw, dict):
        return []
    return [
        (str(key), [v if isinstance(v, str) else str(v) for v in values] if isinstance(values, list) else [])
        for key, values in raw.items()
    ]


def render_persona(name: str, persona: Any) -> str:
    """The text Agnai renders `persona` to for a character called `name` ('' when it is no persona)."""
    if not isinstance(persona, dict):
        return ""
    kind = persona.get("kind")
    attrs = _attributes(persona)
    if kind == "wpp":
        lines = "\n".join(f"{key}({' + '.join(_quote(v) for v in values)})" for key, values in attrs)
        return "\n".join([f'[character("{name}") {{', lines, "}]"])
    if kind == "sbf":
        inner = "; ".join(f"{key}: {', '.join(_quote(v) for v in values)}" for key, values in attrs)
        return f'[ character: "{name}"; {inner} ]'
    if kind == "boostyle":
        return " + ".join([name] + [value for _key, values in attrs for value in values])
    if kind == "attributes":
        lines = "\n".join(f"{key}: {', '.join(values)}" for key, values in attrs)
        return f"Name: {name}\n{lines}"
    if kind == "text":
        text = dict(attrs).get("text") or [""]
        return text[0]
    return ""


def text_persona(text: str, base: Any = None) -> dict:
    """A text persona holding `text`; over `base` (a persona object) keeps its other keys, and
    over a text persona its other attributes too: nothing the file held is lost by an edit of
    its text (Agnai reads only `text[0]`; its own editor saves `text` alone); a structured
    persona's attributes are replaced."""
    persona = dict(base) if isinstance(base, dict) else {}
    kept = persona.get("attributes") if persona.get("kind") == "text" else None
    attributes = dict(kept) if isinstance(kept, dict) else {}
    return persona | {"kind": "text", "attributes": attributes | {"text": [text]}}


def folded_text(description: str, personality: str) -> str:
    """The persona text Agnai makes of a description and a personality: joined by a newline."""
    return "\n".join(text for text in (description, personality) if text)


def is_structured(persona: Any) -> bool:
    return isinstance(persona, dict) and persona.get("kind") in STRUCTURED


def _quote(value: str) -> str:
    return f'"{value}"'
