"""Partial updates: only the fields an input gives change.

A field left out keeps its value; `null` resets a field to its default (None where the model
lets it be empty: a portrait, a scan depth that falls back to the platform's). This is the
same rule as the RFC 7386 merge patch in `patching.py`, so every update capability reads a
`null` the same way.
"""

from __future__ import annotations

from pydantic import BaseModel

from bunzai.errors import BunzaiError


def merge_partial(obj: BaseModel, patch: dict) -> BaseModel:
    """A validated copy of `obj` with the fields of `patch` set (see the module rule on null)."""
    fields = type(obj).model_fields
    data = obj.model_dump(mode="json")
    for key, value in patch.items():
        data[key] = fields[key].get_default(call_default_factory=True) if value is None else value
    return type(obj).model_validate(data)


def merge_mapping(current: dict, patch: dict) -> dict:
    """`current` with `patch` merged in; a key set to null is removed."""
    merged = dict(current)
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def check_index(index: int, length: int, what: str) -> int:
    """`index` into a list of `length` (negative counts from the end); invalid_input otherwise."""
    if not -length <= index < length:
        raise BunzaiError(
            "invalid_input",
            f"{what}: index {index} is out of range (there are {length})",
            "indexes count from 0; -1 is the last",
        )
    return index % length


def check_permutation(order: list, current: list, what: str) -> None:
    """Refuse an `order` that is not exactly the items of `current`, each once."""
    if sorted(map(str, order)) != sorted(map(str, current)):
        missing = [str(x) for x in current if str(x) not in set(map(str, order))]
        extra = [str(x) for x in order if str(x) not in set(map(str, current))]
        raise BunzaiError(
            "invalid_input",
            f"{what}: the new order must name every item exactly once"
            + (f"; missing {', '.join(missing)}" if missing else "")
            + (f"; unknown {', '.join(extra)}" if extra else ""),
            "list them all, in the order you want",
        )
