"""YAML text within the same limits as JSON (size, depth), parsed safely (no tags, no objects)."""

from __future__ import annotations

import datetime
import json
import math
from typing import Any

from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import mend_lone_surrogates, note_duplicate_keys
from bunzai.limits import JSON_MAX_BYTES, JSON_MAX_DEPTH, YAML_MAX_VALUES


def load_yaml_bytes(data: bytes, *, what: str) -> Any:
    if len(data) > JSON_MAX_BYTES:
        raise BunzaiError(
            "too_large", f"{what} is over {JSON_MAX_BYTES} bytes", "split the document, or move large media into assets"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BunzaiError(
            "invalid_json", f"{what} is not UTF-8 text (byte {error.start})", "save the file as UTF-8"
        ) from None
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    yaml = YAML(typ="safe", pure=True)
    yaml.Constructor = _last_key_wins_constructor()
    try:
        doc = yaml.load(text)
    except (YAMLError, RecursionError) as error:
        raise BunzaiError(
            "invalid_json",
            f"{what} is not valid YAML: {str(error).splitlines()[0]}",
            "check the document with a YAML validator",
        ) from None
    except ValueError as error:  # an integer of thousands of digits, a bad date or base64 value
        raise BunzaiError(
            "invalid_json", f"{what} holds a value YAML cannot read: {error}", "write long numbers as text"
        ) from None
    return mend_lone_surrogates(_json_values(doc, what))


def _last_key_wins_constructor() -> type:
    """ruamel's safe constructor with bunzai's one rule for a repeated key (the rule JSON
    follows too, see jsondoc.reading): the last value wins and the key is noted for the
    reader's warning. ruamel refuses such a mapping; PyYAML, which text-generation-webui
    reads its YAML characters with, keeps the last value, so refusing would refuse files the
    platform itself loads."""
    from ruamel.yaml.constructor import SafeConstructor

    class LastKeyWins(SafeConstructor):
        def check_mapping_key(self, node: Any, key_node: Any, mapping: Any, key: Any, value: Any) -> bool:
            if key in mapping:
                note_duplicate_keys([str(key)])
            return True  # the caller then sets mapping[key] = value: the last one wins

    return LastKeyWins


def _json_values(doc: Any, what: str) -> Any:
    """The document as JSON values, as JavaScript's YAML readers give them (dates as ISO
    text, scalar keys as text); refused when nested too deep, expanding (through aliases)
    to too many values, or holding what JSON cannot: binary, sets, non-finite numbers.

    Aliased subtrees are shared objects: each is measured and converted once (memoised by
    identity), so an alias bomb is refused in time proportional to its size in bytes, not
    its expansion. A self-referencing alias nests without end and is refused as too deep.
    """
    sizes: dict[int, int] = {}
    made: dict[int, Any] = {}
    open_nodes: set[int] = set()

    def convert(value: Any, depth: int) -> tuple[Any, int]:
        if depth > JSON_MAX_DEPTH:
            raise BunzaiError("too_deep", f"{what} nests deeper than {JSON_MAX_DEPTH} levels", "flatten the document")
        if not isinstance(value, (dict, list, tuple)):
            return _scalar(value, what), 1
        key = id(value)
        if key in sizes:
            return made[key], sizes[key]
        if key in open_nodes:
            raise BunzaiError(
                "too_deep",
                f"{what} refers to itself through an alias; it nests without end",
                "write the values out instead of the alias that repeats its own mapping",
            )
        open_nodes.add(key)
        total = 1
        if isinstance(value, dict):
            out: Any = {}
            for name, item in value.items():
                out[_key(name, what)], size = convert(item, depth + 1)
                total += size
                _check_total(total, what)
        else:
            out = []
            for item in value:
                converted, size = convert(item, depth + 1)
                out.append(converted)
                total += size
                _check_total(total, what)
        open_nodes.discard(key)
        sizes[key], made[key] = total, out
        return out, total

    return convert(doc, 1)[0]


def _check_total(total: int, what: str) -> None:
    if total > YAML_MAX_VALUES:
        raise BunzaiError(
            "too_large",
            f"{what} expands to more than {YAML_MAX_VALUES} values (through YAML aliases)",
            "write the values out instead of repeating aliases",
        )


def _scalar(value: Any, what: str) -> Any:
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        raise BunzaiError(
            "invalid_json",
            f"{what} holds {value} (.inf or .nan), which is not a number JSON can hold",
            "write a finite number",
        )
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    raise BunzaiError(
        "unsupported",
        f"{what} holds a YAML {_tag_name(value)} value, which bunzai does not read",
        "keep to text, numbers, true/false, null, lists and mappings",
    )


def _key(name: Any, what: str) -> str:
    if isinstance(name, str):
        return name
    if name is None or isinstance(name, (bool, int, float)):
        return json.dumps(_scalar(name, what))  # as JavaScript would key it: 1 -> "1", true -> "true"
    if isinstance(name, (datetime.date, datetime.datetime)):
        return name.isoformat()
    raise BunzaiError(
        "unsupported",
        f"{what} has a YAML {_tag_name(name)} as a mapping key; keys must be text",
        "write the key as text",
    )


def _tag_name(value: Any) -> str:
    return {bytes: "!!binary", set: "!!set"}.get(type(value), type(value).__name__)
