"""A small MessagePack writer, for the two msgpack layers of a `.risup` preset.

It writes what msgpackr (RisuAI's encoder) writes for JSON-like values: the smallest
integer form up to 32 bits and string forms, float64 for other numbers, bin for bytes, nil, booleans, maps
and arrays. msgpack_read reads all of it back; RisuAI's msgpackr decodes plain MessagePack.
"""

from __future__ import annotations

import struct
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError


def pack(value: Any) -> bytes:
    out: list[bytes] = []
    _pack(value, out, 0)
    return b"".join(out)


def _sized(count: int, small: tuple[int, int] | None, forms: tuple[int, int, int] | tuple[int, int]) -> bytes:
    """The header of a string/bin/array/map of `count` items: a fix form when `small` allows it."""
    if small is not None and count < small[1]:
        return bytes([small[0] | count])
    codes = dict(zip(("B", "H", "I")[-len(forms) :], forms))
    for fmt, code in codes.items():
        if count < 1 << (8 * struct.calcsize(fmt)):
            return bytes([code]) + struct.pack(">" + fmt, count)
    raise BunzaiError("too_large", f"a MessagePack value holds {count} items", "the preset is too large to write")


def _pack(value: Any, out: list[bytes], depth: int) -> None:
    if depth > limits.JSON_MAX_DEPTH:
        raise BunzaiError("too_deep", f"a preset nested deeper than {limits.JSON_MAX_DEPTH}", "flatten the preset")
    if value is None:
        out.append(b"\xc0")
    elif value is True or value is False:
        out.append(b"\xc3" if value else b"\xc2")
    elif isinstance(value, int):
        out.append(_int(value))
    elif isinstance(value, float):
        out.append(
            _int(int(value)) if value.is_integer() and abs(value) < 2**53 else b"\xcb" + struct.pack(">d", value)
        )
    elif isinstance(value, str):
        raw = value.encode("utf-8")
        out.append(_sized(len(raw), (0xA0, 32), (0xD9, 0xDA, 0xDB)) + raw)
    elif isinstance(value, (bytes, bytearray)):
        out.append(_sized(len(value), None, (0xC4, 0xC5, 0xC6)) + bytes(value))
    elif isinstance(value, (list, tuple)):
        out.append(_sized(len(value), (0x90, 16), (0xDC, 0xDD)))
        for item in value:
            _pack(item, out, depth + 1)
    elif isinstance(value, dict):
        out.append(_sized(len(value), (0x80, 16), (0xDE, 0xDF)))
        for key, item in value.items():
            _pack(str(key), out, depth + 1)
            _pack(item, out, depth + 1)
    else:
        raise TypeError(f"cannot write {type(value).__name__} as MessagePack")


def _int(value: int) -> bytes:
    """As msgpackr writes a JavaScript number that is an integer: the smallest 8/16/32-bit form,
    a float64 beyond 32 bits (msgpackr's uint64/int64 forms decode as BigInt, which RisuAI does not expect)."""
    if 0 <= value < 128:
        return bytes([value])
    if -32 <= value < 0:
        return struct.pack(">b", value)
    for code, fmt, low, high in (
        (0xCC, "B", 0, 1 << 8),
        (0xCD, "H", 0, 1 << 16),
        (0xCE, "I", 0, 1 << 32),
        (0xD0, "b", -(1 << 7), 0),
        (0xD1, "h", -(1 << 15), 0),
        (0xD2, "i", -(1 << 31), 0),
    ):
        if low <= value < high:
            return bytes([code]) + struct.pack(">" + fmt, value)
    return b"\xcb" + struct.pack(">d", float(value))
