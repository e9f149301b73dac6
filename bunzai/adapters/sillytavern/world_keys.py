"""SillyTavern world-info keys: plain text, or `/pattern/flags` read as a JavaScript regex.

A key is a regex when SillyTavern's `parseRegexFromString` (world-info.js) gives one for it,
trimmed as the scan trims it: the `/.../flags` form with flags from `gimsuy`, every `/` inside
the pattern escaped as `\\/`, and `new RegExp(pattern, flags)` not throwing (repeated flags,
an unbalanced group ...); anything else is plain text. The test is `st_regex`, shared with the
keys of card books (bunzai.adapters.common.card_book), which SillyTavern reads the same way.

The canonical key holds the pattern as JavaScript reads it, each `\\/` as `/` (as card books
hold it), and is written with every bare `/` escaped again; a key that still reads as the
canonical one is kept as written (world_entry), so a world reads and writes back to the same
strings.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.card_book import escape_slashes, may_be_regex, st_regex


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
    """A native key list -> canonical keys. Anything but a list (one key written as a bare
    string too) is no keys: the scan skips an entry whose `key` is no array and ignores such
    a `keysecondary` (`Array.isArray`), and the editor replaces either with []."""
    if not isinstance(value, list):
        return []
    keys = []
    for item in value:
        # Most keys: plain text, no call per key (see may_be_regex).
        if item.__class__ is str and not may_be_regex(item):
            keys.append({"text": item, "regex": False, "flags": ""})
        elif (key := decode_key(item)) is not None:
            keys.append(key)
    return keys


def encode_keys(keys: list[dict]) -> list[str]:
    return [encode_key(key) for key in keys]
