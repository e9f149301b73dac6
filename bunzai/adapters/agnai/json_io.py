"""Agnai's JSON files as it writes them: `JSON.stringify(value, null, 2)`, no newline at the end."""

from __future__ import annotations

import json
from typing import Any

from bunzai.adapters.inspect import parse_text
from bunzai.errors import BunzaiError

ENGINE = "agnai"  # the macro catalog id of Agnai's template engine


def agnai_json_bytes(document: Any) -> bytes:
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False).encode("utf-8")


def agnai_object(data: bytes, name: str, parsed: Any, what: str) -> dict:
    """The file's JSON object (the read's own: see Adapter.read), or a coded refusal naming what was expected."""
    if parsed is None:
        parsed = parse_text(data, name or "x.json")
    if not isinstance(parsed, dict):
        raise BunzaiError(
            "corrupt_file",
            f"{name or 'the file'} is not {what}: it holds a JSON {type(parsed).__name__}, not an object",
            f"give the {what} .json file Agnai saved",
        )
    return parsed


def escrowed(piece: Any, format_id: str) -> dict | None:
    original = piece.original
    if original is None or original.format != format_id or not isinstance(original.document, dict):
        return None
    return original.document
