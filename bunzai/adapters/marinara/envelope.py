"""The `.marinara.json` export envelope and the wire habits of Marinara Engine's rows.

Every export is `{type: marinara_<kind>, version: 1, exportedAt, data}`. The rows inside
are database rows: booleans arrive as the strings "true"/"false" and nested structures as
JSON strings inside the JSON (a preset's `parameters`, `sectionOrder`, a section's
`markerConfig` ...). bunzai decodes those strings only to read what the canonical model
names, and re-encodes a string only when its decoded value was edited, compactly, as
JavaScript's JSON.stringify writes it, so an unedited string goes back byte for byte.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from bunzai.adapters.common.jsjson import stringify

from bunzai.adapters.inspect import parse_text
from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import load_json_bytes

ENVELOPE_VERSION = 1
# A new document needs an exportedAt; a fixed time keeps the bytes a function of the piece,
# so a transfer preview and the export that follows it give the same hash.
FIXED_EXPORTED_AT = "2000-01-01T00:00:00.000Z"


def envelope_type(parsed: Any) -> str | None:
    """The envelope's `type` (marinara_preset ...) when `parsed` is a Marinara export."""
    if (
        isinstance(parsed, dict)
        and isinstance(parsed.get("type"), str)
        and parsed["type"].startswith("marinara_")
        and isinstance(parsed.get("data"), dict)
    ):
        return parsed["type"]
    return None


def envelope_of(data: bytes, name: str, parsed: Any, wanted: str) -> dict:
    """The parsed envelope of type `wanted` (the read's own: see Adapter.read), or a coded refusal."""
    if parsed is None:
        parsed = parse_text(data, name or "x.marinara.json")
    found = envelope_type(parsed)
    if found != wanted:
        raise BunzaiError(
            "corrupt_file",
            f"{name or 'the file'} is not a Marinara {wanted} export (its type is {found or 'missing'})",
            "export it again from Marinara Engine",
        )
    return parsed


def new_envelope(kind: str, data: dict) -> dict:
    return {"type": kind, "version": ENVELOPE_VERSION, "exportedAt": FIXED_EXPORTED_AT, "data": data}


def file_bytes(document: Any) -> bytes:
    """2-space indent, non-ASCII as is, integral numbers without `.0`, newline at the end."""
    return (stringify(document, 2) + "\n").encode("utf-8")


def decode_nested(raw: Any, default: Any) -> Any:
    """A JSON string inside the JSON, decoded; `default` when it is absent or unreadable.

    An already-decoded value (an object where a string is usual) is taken as it is. With a
    default other than None, a value of another type (`"true"`, `true` for an object) reads
    as the default; with None, the caller checks the type. Non-finite numbers (`1e400`, NaN)
    make the string unreadable, as they would in the file itself.
    """
    if isinstance(raw, str):
        try:
            raw = load_json_bytes(raw, what="a JSON string inside the file")
        except BunzaiError:
            return default
    if raw is None or default is None:
        return raw if raw is not None else default
    return raw if isinstance(raw, type(default)) else default


def encode_nested(value: Any) -> str:
    """A value as a JSON string inside the JSON: compact, as JSON.stringify writes it."""
    return stringify(value)


def wire_bool(raw: Any, default: bool) -> bool:
    """ "true"/"false" strings (database rows), real booleans, 0/1."""
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
        return raw.strip().lower() == "true"
    if isinstance(raw, int) and raw in (0, 1):
        return bool(raw)
    return default


def put_bool(row: dict, key: str, value: bool, default: bool) -> None:
    """Write a boolean in the style the row already uses (string unless it held a real boolean)."""
    if key in row and wire_bool(row[key], default) == value:
        return
    row[key] = value if isinstance(row.get(key), bool) else ("true" if value else "false")


def row_id(*parts: str) -> str:
    """A 21-character id like Marinara's nanoids, derived from `parts` (same parts, same id)."""
    digest = hashlib.sha256("\0".join(parts).encode("utf-8")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:21]


def compact_bytes(document: Any) -> bytes:
    """As Marinara's export routes send an envelope: compact JSON.stringify, no newline."""
    return stringify(document).encode("utf-8")


def escrowed_envelope(piece: Any, format_id: str, kind: str) -> dict | None:
    """The piece's escrowed envelope when it was read from `format_id` (type `kind`)."""
    original = piece.original
    if original is None or original.format != format_id or envelope_type(original.document) != kind:
        return None
    return original.document
