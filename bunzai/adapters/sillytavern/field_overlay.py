"""Native keys <-> canonical fields, one table row per key, written over the escrow.

A `Field` names one native key, the path of the canonical value it carries, a `decode`
(native value, or MISSING when the key is absent -> canonical value) and an `encode`
(canonical value -> native value, or MISSING to leave the key out).

Writing over an escrowed document keeps a native value whenever decoding it still gives
the canonical value: so `role: null`, a sparse 2023 entry without `addMemo`, or a
temperature written as "0.7" come back exactly as written, and only edited fields are
re-encoded. Keys no row names are kept as they are.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bunzai.adapters.common.readback import same  # noqa: F401  (re-exported: spokes import it from here)


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""An absent native key, or a canonical value that is not set (a dict member left out)."""


def _identity(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Field:
    native: str
    path: tuple[str, ...]
    decode: Callable[[Any], Any]
    encode: Callable[[Any], Any] = _identity


def get_path(tree: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(tree, dict) or part not in tree:
            return MISSING
        tree = tree[part]
    return tree


def _set_path(tree: dict, path: tuple[str, ...], value: Any) -> None:
    for part in path[:-1]:
        tree = tree.setdefault(part, {})
    tree[path[-1]] = value


def decode_fields(fields: Iterable[Field], native: dict) -> dict:
    """The canonical values the native keys carry, as a nested dict (unset ones left out)."""
    out: dict = {}
    for field in fields:
        value = field.decode(native.get(field.native, MISSING))
        if value is not MISSING:
            _set_path(out, field.path, value)
    return out


def encode_fields(fields: Iterable[Field], canon: dict, prior: dict | None) -> dict:
    """The native object for `canon`, written over `prior` (the escrowed object) when given."""
    out = dict(prior) if prior is not None else {}
    for field in fields:
        value = get_path(canon, field.path)
        if prior is not None and same(field.decode(prior.get(field.native, MISSING)), value):
            continue
        native = MISSING if value is MISSING else field.encode(value)
        if native is MISSING:
            out.pop(field.native, None)
        else:
            out[field.native] = native
    return out


# --- decoders: tolerate the type drift real files carry, never raise -------------------


def as_int(default: Any = None, lo: int | None = None, hi: int | None = None) -> Callable[[Any], Any]:
    def decode(value: Any) -> Any:
        number = _to_number(value)
        if number is None or not float(number).is_integer():
            return default
        number = int(number)
        if (lo is not None and number < lo) or (hi is not None and number > hi):
            return default
        return number

    return decode


def as_float(default: Any = None, lo: float | None = None) -> Callable[[Any], Any]:
    def decode(value: Any) -> Any:
        number = _to_number(value)
        if number is None or (lo is not None and number < lo):
            return default
        return number

    return decode


def _to_number(value: Any) -> int | float | None:
    if isinstance(value, bool) or value is MISSING or value is None:
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if isinstance(value, int):
        return value if abs(value) <= _EXACT_INT else None  # past 2**53 no platform keeps it exact
    if isinstance(value, float) and math.isfinite(value):
        return value
    return None


_EXACT_INT = 2**53


def as_bool(default: Any = False) -> Callable[[Any], Any]:
    def decode(value: Any) -> Any:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        return default

    return decode


def as_str(default: Any = "") -> Callable[[Any], Any]:
    return lambda value: value if isinstance(value, str) else default


def as_json(value: Any) -> Any:
    """Any JSON value as it is (absent stays absent)."""
    return value


def as_object(value: Any) -> Any:
    return value if isinstance(value, dict) else {}


def choice(values: dict[Any, Any], default: Any) -> Callable[[Any], Any]:
    """A native enum (ints or strings) -> canonical names; unknown values give `default`."""

    def decode(value: Any) -> Any:
        if isinstance(value, bool):
            return default
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return values.get(value, default) if isinstance(value, (int, str)) else default

    return decode


def reverse(values: dict[Any, Any]) -> Callable[[Any], Any]:
    back = {name: native for native, name in values.items()}
    return lambda value: back.get(value, MISSING)


def omit_none(value: Any) -> Any:
    return MISSING if value is None else value


def decimal_text(text: str) -> bool:
    """True for the canonical spelling of a non-negative integer ("12", not "012" or "¹")."""
    return text.isascii() and text.isdigit() and str(int(text)) == text


def js_numbers(value: Any) -> Any:
    """Integral floats as ints, as JavaScript writes them (1, not 1.0)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {key: js_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [js_numbers(item) for item in value]
    return value
