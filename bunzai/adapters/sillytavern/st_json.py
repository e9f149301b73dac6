"""SillyTavern's JSON files as it writes them: `JSON.stringify(data, null, 4)`.

Also the one way world and preset readers get their document: the parsed JSON the
inspector hands over, or the bytes parsed here within the limits, refused unless it is
an object.
"""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Any

from bunzai.adapters.common.jsjson import js_numbers
from bunzai.adapters.inspect import parse_text
from bunzai.errors import BunzaiError


def native_json_bytes(document: Any) -> bytes:
    """4-space indent, non-ASCII as is, integral numbers without `.0`, no newline at the end."""
    return json.dumps(js_numbers(document), indent=4, ensure_ascii=False, allow_nan=False).encode("utf-8")


def native_object(data: bytes, name: str, parsed: Any, what: str) -> dict:
    """The file's JSON object, or a coded refusal naming what was expected.

    `parsed` is this read's own parse (inspect and convert parse each file for the one read
    they hand it to, and sniffers only look), so it becomes the escrow as it is: the copy
    took longer than the parse itself."""
    if parsed is None:
        parsed = parse_text(data, name or "x.json")
    if not isinstance(parsed, dict):
        raise BunzaiError(
            "corrupt_file",
            f"{name or 'the file'} is not {what}: it holds a JSON {type(parsed).__name__}, not an object",
            "give the .json file SillyTavern saved",
        )
    return parsed


def file_stem(name: str) -> str:
    """SillyTavern names worlds and presets by their file stem."""
    return PurePath(name).stem if name else ""
