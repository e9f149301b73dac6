"""List-like answers as aligned columns (`--table`), for people reading a terminal.

A list-like answer is a JSON object `{"count": N, "items": [...]}` (plus keys of its own);
the table prints its items when they are objects. Columns are the items' keys in first-seen
order; lists of strings print joined by commas, other nested values as compact JSON, and
64-hex revisions and hashes print as their first 12 digits. Columns are aligned by the
columns a terminal gives each character (a CJK character takes two, a combining accent
none), and on a stream that is not UTF-8 what its encoding cannot hold is escaped before the
cell is measured, as the stream would escape it (`\\u9f8d`), so the escapes do not push the
columns out of line.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bunzai.limits import TABLE_CELL_MAX_CHARS, TABLE_HASH_CHARS

_HASH = re.compile(r"[0-9a-f]{64}", re.ASCII)


def items_of(doc: dict) -> list[dict] | None:
    """The answer's non-empty `items` when they are objects, or None: then the answer prints
    as JSON (an empty answer too, so it still says what it is)."""
    items = doc.get("items")
    if not isinstance(items, list) or not items or not all(isinstance(item, dict) for item in items):
        return None
    return items


def cell(value: Any, encoding: str | None = None) -> str:
    """One value as one line of at most TABLE_CELL_MAX_CHARS columns. With `encoding` (a
    stream that is not UTF-8), what it cannot hold is written as backslash escapes, as the
    stream would write it, before the cell is measured and cut."""
    if value is None:
        return ""
    if isinstance(value, str):
        text = value[:TABLE_HASH_CHARS] if _HASH.fullmatch(value) else value
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, (int, float)):
        text = str(value)
    elif isinstance(value, list) and all(isinstance(part, str) for part in value):
        text = ", ".join(value)
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = " ".join(text.split())  # one line per row
    if text.isascii() and text.isprintable() and len(text) <= TABLE_CELL_MAX_CHARS:
        return text
    parts: str | list[str] = text
    if not text.isprintable():  # a card's ESC or bidi control must not reach the terminal raw
        from bunzai.changes.hidden_chars import escape_parts

        parts = escape_parts(text)
    if encoding is None:
        return _cut(parts, "…")
    # Escape first, then cut at a whole escape: the stream writes the escapes as they are.
    return _cut([char.encode(encoding, "backslashreplace").decode(encoding) for char in parts], "...")


def width(text: str) -> int:
    """The columns a terminal gives `text`: two for a wide (CJK) character, none for a combining
    mark or a zero-width format character, one for the rest."""
    if text.isascii():
        return len(text)
    return sum(map(_columns, text))


def _columns(char: str) -> int:
    import unicodedata  # only for a cell that is not ASCII

    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _cut(parts, ellipsis: str) -> str:
    """`parts` (a text, or its characters as the stream writes them) within
    TABLE_CELL_MAX_CHARS columns, ending in `ellipsis` when cut."""
    if width("".join(parts)) <= TABLE_CELL_MAX_CHARS:
        return "".join(parts)
    room, used = TABLE_CELL_MAX_CHARS - len(ellipsis), 0
    for index, part in enumerate(parts):
        used += width(part)
        if used > room:
            return "".join(parts[:index]) + ellipsis
    return "".join(parts)


def table_text(items: list[dict], *, encoding: str | None = None) -> str:
    """A header line, then one aligned line per item; the empty string for no items. With
    `encoding` (a stream that is not UTF-8), each cell is as that stream writes it."""
    if not items:
        return ""
    columns = list(dict.fromkeys(key for item in items for key in item))
    rows = [[cell(column.upper(), encoding) for column in columns]]
    rows += [[cell(item.get(column), encoding) for column in columns] for item in items]
    sizes = [[width(text) for text in row] for row in rows]
    widths = [max(row[index] for row in sizes) for index in range(len(columns))]
    return "".join(
        "  ".join(text + " " * (column - size) for text, size, column in zip(row, row_sizes, widths)).rstrip() + "\n"
        for row, row_sizes in zip(rows, sizes)
    )
