"""Canonical bytes and revisions.

A piece is stored as `json.dumps(sort_keys=True, indent=2, ensure_ascii=False)` plus a
newline, in UTF-8. Its revision is the SHA-256 of the file's bytes, whatever they are, so a
hand edit (even whitespace) is a new revision. Reading JSON (bounds, decoder, read notes)
is `bunzai.jsondoc.reading`.
"""

from __future__ import annotations

import json
from functools import cache

from bunzai import limits
from bunzai.errors import BunzaiError

TYPE_CHECKING = False  # typing costs 3 ms to import; `bunzai read` never needs it
if TYPE_CHECKING:
    from typing import Any


def canonical_bytes(data: Any) -> bytes:
    """The stored form of a piece: sorted keys, 2-space indent, newline at end, UTF-8.

    Byte for byte `json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False,
    allow_nan=False)` plus a newline; written by `_indented` because the standard library
    formats indented JSON in pure Python, a generator per value, which made it the largest
    cost of applying a card. Anything `_indented` does not handle is left to `json.dumps`.
    """
    try:
        try:
            parts: list[str] = []
            _indented(data, "\n", parts)
            text = "".join(parts)
        except _Unusual:
            text = json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False)
        return (text + "\n").encode("utf-8")
    except RecursionError:
        raise BunzaiError(
            "too_deep",
            f"the document nests deeper than {limits.JSON_MAX_DEPTH} levels",
            hint="flatten the document",
        ) from None
    except (TypeError, ValueError) as error:  # non-JSON values, NaN, mixed keys, lone surrogates
        raise BunzaiError(
            "invalid_input",
            f"the document cannot be stored as JSON: {error}",
            hint="use only JSON values: objects with string keys, arrays, strings, finite numbers, true/false/null",
        ) from None


class _Unusual(Exception):
    """A value `_indented` leaves to `json.dumps` (non-string keys, subclasses, non-finite floats)."""


def _indented(value: Any, newline: str, parts: list[str]) -> None:
    """Append the indented JSON of `value` to `parts`; `newline` is "\n" plus the current indent."""
    kind = type(value)
    if kind is str:
        parts.append(_quote(value))
    elif kind is dict:
        if not value:
            parts.append("{}")
            return
        inner = newline + "  "
        first = True
        for key in sorted(value):
            if type(key) is not str:
                raise _Unusual
            parts.append(("{" if first else ",") + inner + _quote(key) + ": ")
            first = False
            _indented(value[key], inner, parts)
        parts.append(newline + "}")
    elif kind is list:
        if not value:
            parts.append("[]")
            return
        inner = newline + "  "
        first = True
        for item in value:
            parts.append(("[" if first else ",") + inner)
            first = False
            _indented(item, inner, parts)
        parts.append(newline + "]")
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif kind is int:
        parts.append(int.__repr__(value))
    elif kind is float and value == value and value not in (_INF, -_INF):
        parts.append(float.__repr__(value))
    else:
        raise _Unusual


_INF = float("inf")
_quote = json.encoder.encode_basestring  # the C function json.dumps uses with ensure_ascii=False


# Up to this size, a revision is hashed by Python's own SHA-256 module: importing hashlib
# loads OpenSSL, 3 ms of a `bunzai read` that hashes one small file. OpenSSL hashes about six
# times faster per byte, so a larger file goes to hashlib; the digest is the same either way.
_SMALL_FILE = 1 << 16


def revision_of(raw: bytes) -> str:
    """The revision of a stored file: SHA-256 of its bytes, lowercase hex."""
    if len(raw) <= _SMALL_FILE:
        return _builtin_sha256()(raw).hexdigest()
    import hashlib

    return hashlib.sha256(raw).hexdigest()


@cache
def _builtin_sha256():
    """Python's own SHA-256 constructor (hashlib's where this build has none)."""
    try:
        from _sha256 import sha256  # CPython 3.11
    except ImportError:
        try:
            from _sha2 import sha256  # CPython 3.12 and later
        except ImportError:  # a build without the built-in hashes
            from hashlib import sha256
    return sha256
