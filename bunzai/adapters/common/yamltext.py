"""YAML text within the same limits as JSON (size, depth), parsed safely (no tags, no objects)."""

from __future__ import annotations

from typing import Any

from bunzai.errors import BunzaiError
from bunzai.limits import JSON_MAX_BYTES, JSON_MAX_DEPTH


def load_yaml_bytes(data: bytes, *, what: str) -> Any:
    if len(data) > JSON_MAX_BYTES:
        raise BunzaiError("too_large", f"{what} is over {JSON_MAX_BYTES} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BunzaiError("invalid_json", f"{what} is not UTF-8 text (byte {error.start})") from None
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    yaml = YAML(typ="safe", pure=True)
    try:
        doc = yaml.load(text)
    except (YAMLError, RecursionError) as error:
        raise BunzaiError("invalid_json", f"{what} is not valid YAML: {str(error).splitlines()[0]}") from None
    _check_depth(doc, what)
    return doc


def _check_depth(doc: Any, what: str) -> None:
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > JSON_MAX_DEPTH:
            raise BunzaiError("too_deep", f"{what} nests deeper than {JSON_MAX_DEPTH} levels")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
