"""JSON as JavaScript's JSON.stringify writes it (what Node/Electron apps save)."""

from __future__ import annotations

import json
from typing import Any


def js_numbers(value: Any) -> Any:
    """Integral floats as ints, as JavaScript writes them (1, not 1.0)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {key: js_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [js_numbers(item) for item in value]
    return value


def stringify(value: Any, indent: int | None = None) -> str:
    """JSON.stringify(value, null, indent): compact when indent is None, non-ASCII as is."""
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(js_numbers(value), indent=indent, separators=separators, ensure_ascii=False, allow_nan=False)
