"""YAML text within the same limits as JSON (size, depth), parsed safely (no tags, no objects)."""

from __future__ import annotations

from typing import Any

from bunzai.errors import BunzaiError
from bunzai.limits import JSON_MAX_BYTES, JSON_MAX_DEPTH, YAML_MAX_VALUES


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
    except ValueError as error:  # an integer of thousands of digits, a bad date or base64 value
        raise BunzaiError("invalid_json", f"{what} holds a value YAML cannot read: {error}",
                          "write long numbers as text") from None
    _check_depth(doc, what)
    return doc


def _check_depth(doc: Any, what: str) -> None:
    """Refuse documents nested too deep or expanding (through aliases) to too many values.

    Aliased subtrees are shared objects: each is measured once (memoised by identity), so
    an alias bomb is refused in time proportional to its size in bytes, not its expansion.
    A self-referencing alias nests without end and is refused as too deep.
    """
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()

    def size(value: Any, depth: int) -> int:
        if depth > JSON_MAX_DEPTH:
            raise BunzaiError("too_deep", f"{what} nests deeper than {JSON_MAX_DEPTH} levels")
        if not isinstance(value, (dict, list)):
            return 1
        key = id(value)
        if key in sizes:
            return sizes[key]
        if key in open_nodes:
            raise BunzaiError("too_deep", f"{what} refers to itself through an alias; it nests without end")
        open_nodes.add(key)
        items = value.values() if isinstance(value, dict) else value
        total = 1
        for item in items:
            total += size(item, depth + 1)
            if total > YAML_MAX_VALUES:
                raise BunzaiError("too_large", f"{what} expands to more than {YAML_MAX_VALUES} values "
                                  "(through YAML aliases)", "write the values out instead of repeating aliases")
        open_nodes.discard(key)
        sizes[key] = total
        return total

    size(doc, 1)
