"""SillyTavern world-info keys: plain text, or `/pattern/flags` read as a JavaScript regex.

SillyTavern treats a key as a regex only when it has the `/.../flags` form (flags from
`gimsuy`) and every `/` inside the pattern is escaped as `\\/`; anything else is plain
text. The canonical key holds the pattern as JavaScript reads it, each `\\/` as `/` (as
card books hold it), and is written with every bare `/` escaped again; a key that still
reads as the canonical one is kept as written (world_entry), so a world reads and writes
back to the same strings.
"""

from __future__ import annotations

import re
from typing import Any

from bunzai.adapters.common.card_book import escape_slashes, unescape_slashes

_REGEX_FORM = re.compile(r"/([\w\W]+?)/([gimsuy]*)\Z")
_UNESCAPED_SLASH = re.compile(r"(^|[^\\])/")


def decode_key(value: Any) -> dict | None:
    """A native key -> a canonical Key dict; None for values that are no key at all."""
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return None
    text = value if isinstance(value, str) else str(value)
    found = _REGEX_FORM.match(text)
    if found and not _UNESCAPED_SLASH.search(found.group(1)):
        return {"text": unescape_slashes(found.group(1)), "regex": True, "flags": found.group(2)}
    return {"text": text, "regex": False, "flags": ""}


def encode_key(key: dict) -> str:
    """A canonical Key dict -> the native string (`/pattern/flags` for a regex)."""
    if not key.get("regex"):
        return key.get("text", "")
    return f"/{escape_slashes(key.get('text', ''))}/{key.get('flags', '')}"


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
