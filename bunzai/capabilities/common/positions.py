"""Finding, inserting and reordering the items of a list by their key (id, identifier, uid).

Bundle capabilities address list items by key, never by raw index into JSON, and say which
keys exist when one is unknown.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import Field, model_validator

from bunzai.capabilities.common.patching import refuse
from bunzai.model.base import Model

# Keys listed in an "unknown item" message; a long list is cut so the error stays readable.
_KNOWN_SHOWN = 20


def _known(items: list[dict], key: str) -> str:
    keys = [repr(item.get(key)) for item in items]
    more = f" and {len(keys) - _KNOWN_SHOWN} more" if len(keys) > _KNOWN_SHOWN else ""
    return ", ".join(keys[:_KNOWN_SHOWN]) + more if keys else "(none)"


def index_of(items: list[dict], key: str, value: Any, what: str) -> int:
    """The index of the item whose `key` is `value`; invalid_input naming the known keys otherwise."""
    for index, item in enumerate(items):
        if item.get(key) == value:
            return index
    raise refuse(f"no {what} {value!r}", f"known: {_known(items, key)}")


class Placement(Model):
    """Where new items go: before or after an existing one, at an index, or (default) at the end."""

    before: str | int | None = Field(default=None, description="Insert before the item with this key.")
    after: str | int | None = Field(default=None, description="Insert after the item with this key.")
    at: int | None = Field(default=None, ge=0, description="Insert at this 0-based index (past the end = at the end).")

    @model_validator(mode="after")
    def _one_anchor(self) -> Placement:
        if sum(value is not None for value in (self.before, self.after, self.at)) > 1:
            raise ValueError("give at most one of before, after, at")
        return self


def insertion_index(items: list[dict], key: str, placement: Placement, what: str) -> int:
    """Where `placement` puts new items in `items`."""
    if placement.before is not None:
        return index_of(items, key, placement.before, what)
    if placement.after is not None:
        return index_of(items, key, placement.after, what) + 1
    if placement.at is not None:
        return min(placement.at, len(items))
    return len(items)


class Reorder(Model):
    """A new order: the complete list of keys, or one item moved before/after another or to an index."""

    order: list[str | int] | None = Field(
        default=None, description="Every item's key, in the new order (a complete permutation)."
    )
    move: str | int | None = Field(default=None, description="Key of the one item to move (with before, after or to).")
    before: str | int | None = Field(default=None, description="Move it just before the item with this key.")
    after: str | int | None = Field(default=None, description="Move it just after the item with this key.")
    to: int | None = Field(default=None, ge=0, description="Move it to this 0-based index.")

    @model_validator(mode="after")
    def _one_form(self) -> Reorder:
        anchors = sum(value is not None for value in (self.before, self.after, self.to))
        if (self.order is None) == (self.move is None):
            raise ValueError("give either `order` (every key) or `move` with one of before, after, to")
        if self.move is not None and anchors != 1:
            raise ValueError("`move` needs exactly one of before, after, to")
        if self.order is not None and anchors:
            raise ValueError("`order` stands alone; before, after and to go with `move`")
        return self


def reordered(items: list[dict], key: str, spec: Reorder, what: str) -> list[dict]:
    """`items` in the order `spec` asks for; invalid_input when the keys do not fit."""
    if spec.order is not None:
        current = [item.get(key) for item in items]
        missing = [k for k in current if k not in spec.order]
        unknown = [k for k in spec.order if k not in current]
        if missing or unknown or Counter(map(repr, spec.order)) != Counter(map(repr, current)):
            problem = []
            if missing:
                problem.append("missing " + ", ".join(map(repr, missing)))
            if unknown:
                problem.append("unknown " + ", ".join(map(repr, unknown)))
            if not problem:
                problem.append("each key must be listed as many times as items have it")
            raise refuse(f"`order` must list every {what} once: " + "; ".join(problem), f"known: {_known(items, key)}")
        return _taken_in_order(items, key, spec.order)
    anchor = spec.before if spec.before is not None else spec.after
    if anchor is not None and anchor == spec.move:
        raise refuse(f"cannot move {what} {spec.move!r} before or after itself", "name another item as the anchor")
    rest = list(items)
    moving = rest.pop(index_of(rest, key, spec.move, what))
    if spec.to is not None:
        index = min(spec.to, len(rest))
    elif spec.before is not None:
        index = index_of(rest, key, spec.before, what)
    else:
        index = index_of(rest, key, spec.after, what) + 1
    rest.insert(index, moving)
    return rest


def _taken_in_order(items: list[dict], key: str, order: list) -> list[dict]:
    """`items` in `order`. Items that share a key (files repeat ids) keep their own order, taken
    one per mention, so none is lost or doubled; keys go by repr, as a file's key may be a list."""
    queues: dict[str, list[dict]] = {}
    for item in items:
        queues.setdefault(repr(item.get(key)), []).append(item)
    return [queues[repr(k)].pop(0) for k in order]


def unique_key(wanted: str, taken: set[str]) -> str:
    """`wanted`, or `wanted-2`, `wanted-3` ... whichever is free first."""
    if wanted not in taken:
        return wanted
    number = 2
    while f"{wanted}-{number}" in taken:
        number += 1
    return f"{wanted}-{number}"
