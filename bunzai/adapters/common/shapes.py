"""Shape checks for readers: a value a format requires to be a list (or an object) that is
something else is a damaged file, refused as `corrupt_file` naming its JSON pointer, never
iterated blindly (issue 17: a number where BYAF lists characters crashed the reader)."""

from __future__ import annotations

from typing import Any

from bunzai.errors import BunzaiError


def json_type(value: Any) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def list_at(document: dict, key: str, where: str, hint: str) -> list:
    """document[key] as a list: absent or null reads as empty; any other non-list is refused.
    `where` is the document's name and pointer (e.g. `manifest.json /`)."""
    value = document.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise BunzaiError("corrupt_file", f"{where.rstrip('/')}/{key} is {json_type(value)}, not an array", hint)
    return value
