"""Outlines and bounded pages: reading a long piece a screen at a time."""

from __future__ import annotations

import json

from bunzai.errors import BunzaiError
from bunzai.limits import OUTLINE_PREVIEW_CHARS, READ_PAGE_DEFAULT, READ_PAGE_MAX
from bunzai.query.pointer import join, resolve

TYPE_CHECKING = False  # typing costs 3 ms to import; `bunzai read` never needs it
if TYPE_CHECKING:
    from typing import Any


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def outline(document: Any, pointer: str = "", offset: int = 0, limit: int | None = None) -> dict:
    """The immediate children of the value at `pointer`, each with its pointer, type and size,
    a page of them at a time as `page` pages a value (a book of thousands of entries)."""
    limit = _checked_page(offset, limit)
    value = resolve(document, pointer)
    if isinstance(value, dict):
        keys = list(value)[offset : offset + limit]
        items = [(key, value[key]) for key in keys]
    elif isinstance(value, list):
        items = list(enumerate(value))[offset : offset + limit]
    else:
        raise BunzaiError(
            "bad_pointer",
            f"{pointer or '(root)'} is a {type_name(value)}: it has no children",
            "read it with --pointer",
        )
    end = offset + len(items)
    return {
        "pointer": pointer,
        "type": type_name(value),
        "size": len(value),
        "offset": offset,
        "children": [_row(join(pointer, key), child) for key, child in items],
        "next_offset": end if end < len(value) else None,
    }


def _checked_page(offset: int, limit: int | None) -> int:
    """The page's limit (READ_PAGE_DEFAULT when none is given), offset and limit checked."""
    if offset < 0:
        raise BunzaiError("invalid_input", "--offset may not be negative", "pages start at offset 0")
    limit = READ_PAGE_DEFAULT if limit is None else limit
    if not 1 <= limit <= READ_PAGE_MAX:
        raise BunzaiError(
            "invalid_input",
            f"--limit must be between 1 and {READ_PAGE_MAX}",
            "read a longer text page by page: the answer's next_offset is where the next page starts",
        )
    return limit


def _row(pointer: str, value: Any) -> dict:
    row: dict[str, Any] = {"pointer": pointer, "type": type_name(value)}
    if isinstance(value, (dict, list, str)):
        row["size"] = len(value)
    if isinstance(value, str):
        row["preview"] = value if len(value) <= OUTLINE_PREVIEW_CHARS else value[: OUTLINE_PREVIEW_CHARS - 1] + "…"
    elif not isinstance(value, (dict, list)):
        row["preview"] = json.dumps(value)
    return row


def page(document: Any, pointer: str, offset: int = 0, limit: int | None = None) -> dict:
    """The value at `pointer`; strings, arrays and objects paged by `offset` and `limit`."""
    limit = _checked_page(offset, limit)
    value = resolve(document, pointer)
    result: dict[str, Any] = {"pointer": pointer, "type": type_name(value)}
    if isinstance(value, (str, list)):
        part = value[offset : offset + limit]
    elif isinstance(value, dict):
        keys = list(value)[offset : offset + limit]
        part = {key: value[key] for key in keys}
    else:
        result["value"] = value
        return result
    end = offset + len(part)
    result.update(
        length=len(value), offset=offset, limit=limit, value=part, next_offset=end if end < len(value) else None
    )
    return result
