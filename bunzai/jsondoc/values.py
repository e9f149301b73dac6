"""JSON values as JSON sees them: one equality rule and one walk to where two values differ.

Equality is JSON Schema's (draft 2020-12, "instance equality"): two numbers are equal when
they have the same mathematical value, so 1 and 1.0 are one number (JSON has no integer
type; a writer that prints 1.0 for 1 has changed nothing); true and false are literals of
their own, never numbers, so True is not 1 although Python says so; objects are equal when
they have the same keys with equal values, arrays when they are equal item by item.

The walk is what both the drafts' diff (`changes/diff.py`) and an adapter's read-back
(`adapters/common/losses.py`) report from, so a draft and a crossing agree on what changed.
Imports nothing of bunzai.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from marshal import dumps as _marshal

TYPE_CHECKING = False  # typing costs 3 ms to import; list, search and read never need it
if TYPE_CHECKING:
    from typing import Any

MISSING: Any = object()  # a side of a change where the key is absent
# Types whose two values of the same type are JSON-equal exactly when == says so (NaN != NaN
# in both): the walk passes such equal pairs without building their pointer.
_SCALARS = frozenset((str, int, float, bool, type(None)))
_CONTAINERS = (dict, list)


def equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, True != 1, objects by keys, arrays item by item."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (type(a) is type(b) and a == b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(equal(a[key], b[key]) for key in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def copied(value: Any) -> Any:
    """A JSON value's own copy: its objects and arrays new, its scalars (immutable) shared.

    What a writer copies an escrowed document or a template with before writing into it:
    three to five times faster than copy.deepcopy, which looks up how to copy each value and
    remembers each one it copied (a JSON tree shares no object and holds no cycle)."""
    if isinstance(value, dict):
        return {key: copied(item) if isinstance(item, (dict, list)) else item for key, item in value.items()}
    if isinstance(value, list):
        return [copied(item) if isinstance(item, (dict, list)) else item for item in value]
    return value


def escape(token: str) -> str:
    """One RFC 6901 reference token: '~' becomes ~0 and '/' becomes ~1."""
    return token.replace("~", "~0").replace("/", "~1")


def join(pointer: str, token: str | int) -> str:
    return f"{pointer}/{escape(str(token))}"


def _same(old: Any, new: Any) -> bool:
    """Whether two values are the same as far as a walk could tell, without walking them: equal
    in Python's eyes (its containers compare in C) and of the same types throughout, which
    marshal's bytes show (Python has True == 1; marshal writes each value with its type, and
    version 2 shares no references, so equal values give equal bytes). Two values this calls
    different may still be JSON-equal (1 and 1.0, keys in another order): the walk decides.
    NaN, which no bunzai document holds, is the same as a NaN of the same bits here."""
    if old.__class__ is not new.__class__:
        return False
    if old.__class__ in _SCALARS:
        return old == new
    if old.__class__ not in _CONTAINERS or old != new:
        return False
    try:
        return _marshal(old, 2) == _marshal(new, 2)
    except ValueError:  # a value marshal cannot write (none in a JSON document), or nested past its depth
        return False


def changes(
    before: Any, after: Any, pointer: str = "", whole: Callable[[list, list], bool] | None = None
) -> Iterator[tuple[str, Any, Any]]:
    """(pointer, before, after) for each place two values differ, keys in sorted order.

    A key on one side only gives MISSING on the other. Objects are walked key by key and
    equal-length arrays item by item; an array that grows or shrinks differs as a whole,
    because index-wise rows would misreport an insertion. `whole(before, after)`, where given,
    may take an equal-length pair as a whole too (the drafts' diff, for items that moved:
    changes/diff.py). Equal parts are passed without walking them (`_same`): a book of
    thousands of entries with one changed is compared in about half the time a walk of every
    entry takes.
    """
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(before.keys() | after.keys()):
            old, new = before.get(key, MISSING), after.get(key, MISSING)
            if old is MISSING or new is MISSING:
                yield join(pointer, key), old, new
            elif not _same(old, new):
                yield from changes(old, new, join(pointer, key), whole)  # (an equal value is passed without a pointer)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        if whole is not None and whole(before, after):
            yield pointer, before, after
            return
        for index, (old, new) in enumerate(zip(before, after)):
            if not _same(old, new):
                yield from changes(old, new, join(pointer, index), whole)
    elif not equal(before, after):
        yield pointer, before, after


def differences(before: Any, after: Any, pointer: str = "") -> Iterator[str]:
    """The pointers where two values differ (see `changes`)."""
    for where, _, _ in changes(before, after, pointer):
        yield where
