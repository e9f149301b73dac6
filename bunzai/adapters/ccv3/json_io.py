"""Reading and writing the spec formats' JSON files (2-space indent, UTF-8 as is)."""

from __future__ import annotations

import json
from typing import Any

from bunzai.adapters.inspect import parse_text
from bunzai.errors import BunzaiError


def json_object(data: bytes, name: str, parsed: Any, what: str) -> dict:
    """The file's JSON object: the inspector's parse, or the bytes parsed within the limits."""
    if parsed is None:
        parsed = parse_text(data, name or "x.json")
    if not isinstance(parsed, dict):
        raise BunzaiError(
            "unsupported",
            f"{name or 'the file'} is not {what}: it holds a JSON {type(parsed).__name__}, not an object",
            f"give a {what} .json file",
        )
    return parsed


def json_bytes(document: Any) -> bytes:
    return (json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


def escrowed(piece: Any, format_id: str) -> dict | None:
    original = piece.original
    if original is None or original.format != format_id or not isinstance(original.document, dict):
        return None
    return original.document
