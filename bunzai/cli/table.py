"""List-like answers as aligned columns (`--table`), for people reading a terminal.

A list-like answer is a JSON object `{"count": N, "items": [...]}` (plus keys of its own);
the table prints its items when they are objects. Columns are the items' keys in first-seen
order; lists of strings print joined by commas, other nested values as compact JSON, and
64-hex revisions and hashes print as their first 12 digits.
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


def cell(value: Any) -> str:
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
    return text if len(text) <= TABLE_CELL_MAX_CHARS else text[: TABLE_CELL_MAX_CHARS - 1] + "…"


def table_text(items: list[dict]) -> str:
    """A header line, then one aligned line per item; the empty string for no items."""
    if not items:
        return ""
    columns = list(dict.fromkeys(key for item in items for key in item))
    rows = [[column.upper() for column in columns]] + [[cell(item.get(column)) for column in columns] for item in items]
    widths = [max(len(row[index]) for row in rows) for index in range(len(columns))]
    return "".join("  ".join(text.ljust(width) for text, width in zip(row, widths)).rstrip() + "\n" for row in rows)
