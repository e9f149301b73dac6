"""SillyTavern world-info keys: plain text, or `/pattern/flags` read as a JavaScript regex.

A key is a regex when SillyTavern's `parseRegexFromString` (world-info.js) gives one for it,
trimmed as the scan trims it: the `/.../flags` form with flags from `gimsuy`, every `/` inside
the pattern escaped as `\\/`, and `new RegExp(pattern, flags)` not throwing (repeated flags,
an unbalanced group ...); anything else is plain text. Whether the pattern compiles is judged by
bunzai.adapters.common.js_regex, a conservative check: a pattern it cannot judge, or one
holding a `{{macro}}` (SillyTavern expands macros in a key first), stays a regex.

The canonical key holds the pattern as JavaScript reads it, each `\\/` as `/` (as card books
hold it), and is written with every bare `/` escaped again; a key that still reads as the
canonical one is kept as written (world_entry), so a world reads and writes back to the same
strings.
"""

from __future__ import annotations

import re
from typing import Any

from bunzai.adapters.common.card_book import escape_slashes, unescape_slashes
from bunzai.adapters.common.js_regex import JS_SPACE, compiles, js_trim

_REGEX_FORM = re.compile(r"/([\w\W]+?)/([gimsuy]*)\Z")
_UNESCAPED_SLASH = re.compile(r"(^|[^\\])/")


def st_regex(text: str) -> tuple[str, str] | None:
    """(pattern as JavaScript reads it, flags) when SillyTavern reads the key as a regex, else None."""
    found = _REGEX_FORM.match(js_trim(text))
    if not found or _UNESCAPED_SLASH.search(found.group(1)):
        return None
    # SillyTavern unescapes the first `\/` only (String.replace); JavaScript reads the rest as `/`.
    pattern, flags = found.group(1).replace("\\/", "/", 1), found.group(2)
    if compiles(pattern, flags) is False and "{{" not in text:
        return None
    return unescape_slashes(pattern), flags


def decode_key(value: Any) -> dict | None:
    """A native key -> a canonical Key dict; None for values that are no key at all."""
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return None
    text = value if isinstance(value, str) else str(value)
    regex = st_regex(text)
    if regex is not None:
        return {"text": regex[0], "regex": True, "flags": regex[1]}
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
        # Most keys: plain text, no call per key (a regex starts with `/`, or space the scan trims).
        if item.__class__ is str and (not item or (item[0] != "/" and item[0] not in JS_SPACE)):
            keys.append({"text": item, "regex": False, "flags": ""})
        elif (key := decode_key(item)) is not None:
            keys.append(key)
    return keys


def encode_keys(keys: list[dict]) -> list[str]:
    return [encode_key(key) for key in keys]
