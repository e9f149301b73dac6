"""The order of an escrowed document's keys, kept across the studio's sorted-key files.

A piece file is stored with sorted keys (canonical bytes, one revision per content), which
would give every object of the escrowed native document back in sorted order: an export of
a SillyTavern world would then rewrite every line of the file, and a one-word edit would
show as a diff of the whole file. So the store records, beside the document, the order of
each object whose keys were not already sorted (`record`), and reading the piece puts the
keys back in that order (`restore`); writers, which write over the escrow in its own
order, then give the file back as it was read.

A record is `{"orders": [[key, ...], ...], "objects": {pointer: index into orders}}`: the
objects of a lorebook's entries share one order, so each distinct order is written once.
Pointers are RFC 6901 (`/entries/0`, the root is ""). Restoring is forgiving, since the
order is presentation and never content: a pointer that no longer names an object is passed
over, keys the record does not name follow in the order they have, and keys it names that
are gone are skipped. Nothing here raises on a record that does not fit its document (the
Escrow model refuses one that is not of this shape at all).
"""

from __future__ import annotations

from collections.abc import Iterator

TYPE_CHECKING = False  # typing costs 3 ms to import; `bunzai read` never needs it
if TYPE_CHECKING:
    from typing import Any


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1") if "~" in key or "/" in key else key


def record(document: Any, kept: dict | None = None) -> dict | None:
    """The record of `document`'s key order (None when every object is sorted).

    `kept` is a record this document was stored with: an object whose keys are sorted here
    takes its order from `kept` when it has one, since a document read from a piece file
    without being validated (the store's own raw copy, which a refused group's undo writes
    back) is sorted throughout, and storing it again must not forget the order it was read in."""
    old_orders, old_objects = _parts(kept)
    orders: list[list[str]] = []
    index_of: dict[tuple[str, ...], int] = {}
    objects: dict[str, int] = {}
    for pointer, value in _objects(document):
        keys = list(value)
        order: list[str] | None = None
        if any(keys[i] > keys[i + 1] for i in range(len(keys) - 1)):
            order = keys
        elif pointer in old_objects:
            order = old_orders[old_objects[pointer]]
        if order is not None:
            shape = tuple(order)
            if shape not in index_of:
                index_of[shape] = len(orders)
                orders.append(list(order))
            objects[pointer] = index_of[shape]
    return {"orders": orders, "objects": objects} if objects else None


def recorded_in(piece: dict) -> dict:
    """A piece document (a dump, or a piece file's JSON) as the studio stores it: with the key
    order of its escrowed document recorded under `original.key_order` (a record it already
    holds is kept where the document is sorted, see `record`). `piece` is not changed."""
    original = piece.get("original")
    if type(original) is not dict or type(original.get("document")) not in (dict, list):
        return piece
    order = record(original["document"], original.get("key_order"))
    if order is None and "key_order" not in original:
        return piece
    escrow = {key: value for key, value in original.items() if key != "key_order"}
    if order is not None:
        escrow["key_order"] = order
    return {**piece, "original": escrow}


def restore(document: Any, order: dict | None) -> None:
    """Put the keys of `document`'s objects back in the order `order` records (in place)."""
    orders, objects = _parts(order)
    if not objects:
        return
    for pointer, value in _objects(document):
        at = objects.get(pointer)
        # An order naming far more keys than its object holds does not fit it: passed over, so
        # a hostile record (one long order named by every object) costs no more than the walk.
        if at is not None and len(orders[at]) <= 2 * len(value) + 16:
            _reorder(value, orders[at])


def _objects(document: Any) -> Iterator[tuple[str, dict]]:
    """(JSON pointer, object) for every object in `document`, each before its children (which
    are looked at after the caller is done with it: `restore` reorders it in place)."""
    stack: list[tuple[str, Any]] = [("", document)]
    while stack:
        pointer, value = stack.pop()
        if type(value) is dict:
            yield pointer, value
            for key, item in value.items():
                if type(item) is dict or type(item) is list:
                    stack.append((f"{pointer}/{_escape(key)}", item))
        elif type(value) is list:
            for index, item in enumerate(value):
                if type(item) is dict or type(item) is list:
                    stack.append((f"{pointer}/{index}", item))


def _reorder(value: dict, keys: list[str]) -> None:
    """`value` with `keys` first, in that order, then its other keys as they were."""
    front = {key: value[key] for key in keys if key in value}
    if len(front) != len(value):  # keys the record does not name follow
        front.update((key, item) for key, item in value.items() if key not in front)
    value.clear()
    value.update(front)


def _parts(order: Any) -> tuple[list[list[str]], dict[str, int]]:
    """(orders, objects) of a record, the entries that do not fit it left out."""
    if not isinstance(order, dict):
        return [], {}
    orders = order.get("orders")
    objects = order.get("objects")
    if not isinstance(orders, list) or not isinstance(objects, dict):
        return [], {}
    fit = [isinstance(keys, list) and all(isinstance(key, str) for key in keys) for keys in orders]
    kept = {pointer: at for pointer, at in objects.items() if type(at) is int and 0 <= at < len(orders) and fit[at]}
    return orders, kept
