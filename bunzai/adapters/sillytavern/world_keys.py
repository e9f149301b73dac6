"""SillyTavern world-info keys: plain text, or `/pattern/flags` read as a JavaScript regex.

SillyTavern treats a key as a regex only when it has the `/.../flags` form (flags from
`gimsuy`) and every `/` inside the pattern is escaped as `\\/`; anything else is plain
text. The canonical key keeps the pattern source as written between the slashes, so a
key reads and writes back to the same string.
"""

from __future__ import annotations

import re
from typing import Any

_REGEX_FORM = re.compile(r"/([\w\W]+?)/([gimsuy]*)\Z")
_UNESCAPED_SLASH = re.compile(r"(^|[^\\])/")


def decode_key(value: Any) -> dict | None:
    """A native key -> a canonical Key dict; None for values that are no key at all."""
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return None
    text = value if isinstance(value, str) else str(value)
    found = _REGEX_FORM.match(text)
    if found and not _UNESCAPED_SLASH.search(found.group(1)):
        return {"text": found.group(1), "regex": True, "flags": found.group(2)}
    return {"text": text, "regex": False, "flags": ""}


def encode_key(key: dict) -> str:
    """A canonical Key dict -> the native string (`/pattern/flags` for a regex)."""
    if not key.get("regex"):
        return key.get("text", "")
    return f"/{escape_slashes(key.get('text', ''))}/{key.get('flags', '')}"


def escape_slashes(pattern: str) -> str:
    """Escape every `/` that is not yet escaped, as SillyTavern requires inside `/.../`."""
    while True:
        escaped = _UNESCAPED_SLASH.sub(lambda m: m.group(1) + "\\/", pattern)
        if escaped == pattern:
            return pattern
        pattern = escaped


def decode_keys(value: Any) -> list[dict]:
    if isinstance(value, str):  # drift: one key written as a bare string
        value = [value]
    if not isinstance(value, list):
        return []
    keys = []
    for item in value:
        if item.__class__ is str and item[:1] != "/":  # most keys: plain text, no call per key
            keys.append({"text": item, "regex": False, "flags": ""})
        elif (key := decode_key(item)) is not None:
            keys.append(key)
    return keys


def encode_keys(keys: list[dict]) -> list[str]:
    return [encode_key(key) for key in keys]
