"""Read the values platforms write with type drift ("0.5", "true", null, 1.0) as strict types.

Each reader takes the raw native value (or MISSING when the key is absent) and a default,
and never raises: a value that cannot mean anything sensible reads as the default, while
the native value itself stays in the escrow.
"""

from __future__ import annotations

import math
from datetime import datetime, UTC
from typing import Any

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()


def as_str(value: Any, default: str = "") -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None or value is MISSING:
        return default
    if isinstance(value, (int, float)):
        return str(value)
    return default


def as_int(value: Any, default: int | None = None) -> int | None:
    if value.__class__ is int:  # the common case first (a bool's class is bool, not int)
        return value
    if isinstance(value, bool) or value is None or value is MISSING:
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return default
        return int(number) if math.isfinite(number) and number.is_integer() else default
    return default


def as_count(value: Any, default: int | None = None) -> int | None:
    """A non-negative integer (depths, sticky, cooldown): negative values read as the default."""
    number = as_int(value, default)
    return number if number is None or number >= 0 else default


def as_float(value: Any, default: float) -> float:
    if isinstance(value, bool) or value is None or value is MISSING:
        return default
    try:
        number = float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an integer past float range
        return default
    return number if math.isfinite(number) else default


def as_bool(value: Any, default: bool | None = False) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    return default


def iso_seconds(value: Any) -> int | None:
    """Unix seconds of an ISO 8601 time as JavaScript writes it ('2024-05-01T10:00:00.000Z');
    None when it is not one (or lies before 1970). A time without a zone is read as UTC."""
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    seconds = int(moment.timestamp())
    return seconds if seconds >= 0 else None


def iso_time(seconds: int | None) -> str | None:
    """`seconds` as JavaScript's Date.toISOString writes it ('2024-05-01T10:00:00.000Z'); None stays None."""
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def as_str_list(value: Any) -> list[str]:
    """A list of strings: a lone string becomes [it]; non-string items are dropped."""
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def as_list(value: Any) -> list:
    return value if isinstance(value, list) else []


def as_object(value: Any) -> dict:
    return value if isinstance(value, dict) else {}
