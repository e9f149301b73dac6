"""Chat-completion prompt manager: `prompts[]` <-> blocks, `prompt_order` <-> orders.

Blocks are matched to the escrowed ones by `identifier`, orders by `character_id` and
order items by identifier (and occurrence), so unknown keys at every level survive.
`character_id` 100000 is SillyTavern's global order; other ids are kept as their text.

A repeated identifier in `prompts` is read as SillyTavern's PromptManager reads it
(getPromptById: the first prompt with that identifier): the first is the block, a later
one is never sent, so it is no block; it stays in the escrow and is written back where it
stood (after the prompt that preceded it), unless its identifier's block was removed (it
would then come alive). Repeated identifiers in an order are kept as items.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.fieldmap import (
    MISSING,
    Field,
    FieldMap,
    bool_reader,
    int_reader,
    str_reader,
    choice,
    decode_fields,
    decimal_text,
    encode_fields,
    reverse,
)
from bunzai.errors import BunzaiError

GLOBAL_CHARACTER_ID = 100000
ROLES = {0: "system", 1: "user", 2: "assistant", "system": "system", "user": "user", "assistant": "assistant"}
POSITIONS = {0: "relative", 1: "absolute"}
TRIGGERS = ("normal", "continue", "impersonate", "swipe", "regenerate", "quiet")
_identifier = str_reader("")  # a prompt's identifier, as its row reads it


def _triggers(value: Any) -> list[str]:
    return [item for item in value if item in TRIGGERS] if isinstance(value, list) else []


PROMPT_FIELDS = FieldMap(
    (
        Field("identifier", ("identifier",), str_reader("")),
        Field("name", ("name",), str_reader("")),
        Field("system_prompt", ("system_prompt",), bool_reader(False)),
        Field("role", ("role",), choice(ROLES, "system")),
        Field("content", ("content",), str_reader("")),
        Field("marker", ("marker",), bool_reader(False)),
        Field("injection_position", ("position",), choice(POSITIONS, "relative"), reverse(POSITIONS)),
        Field("injection_depth", ("depth",), int_reader(4, lo=0)),
        Field("injection_order", ("injection_order",), int_reader(100)),
        Field("injection_trigger", ("triggers",), _triggers),
        Field("forbid_overrides", ("forbid_overrides",), bool_reader(False)),
        Field("enabled", ("enabled",), bool_reader(True)),
    )
)


def _target(value: Any) -> str:
    if value == GLOBAL_CHARACTER_ID and not isinstance(value, bool):
        return "global"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else "global"


def _character_id(target: str) -> int | str:
    if target == "global":
        return GLOBAL_CHARACTER_ID
    return int(target) if decimal_text(target) else target


ORDER_FIELDS = FieldMap((Field("character_id", ("target",), _target, _character_id),))
ITEM_FIELDS = FieldMap(
    (
        Field("identifier", ("identifier",), str_reader("")),
        Field("enabled", ("enabled",), bool_reader(True)),
    )
)


def decode_prompts(document: dict) -> list[dict]:
    """The blocks: each identifier's first prompt (a later one with it is shadowed)."""
    blocks = []
    seen: set[str] = set()
    for raw in _objects(document, "prompts"):
        block = decode_fields(PROMPT_FIELDS, raw)
        if block["identifier"] not in seen:
            seen.add(block["identifier"])
            blocks.append(block)
    return blocks


def shadowed_prompts(prior: dict | None) -> list[tuple[str | None, str, dict]]:
    """Prompts SillyTavern never reaches (an earlier prompt has their identifier), each with
    the identifier of the nearest block before it (None: none) and its own."""
    out = []
    seen: set[str] = set()
    before: str | None = None
    for raw in _objects(prior or {}, "prompts"):
        identifier = _identifier(raw.get("identifier"))
        if identifier in seen:
            out.append((before, identifier, raw))
        else:
            seen.add(identifier)
            before = identifier
    return out


def decode_orders(document: dict) -> list[dict]:
    orders = []
    for raw in _objects(document, "prompt_order"):
        order = decode_fields(ORDER_FIELDS, raw)
        order["items"] = [decode_fields(ITEM_FIELDS, item) for item in _objects(raw, "order")]
        orders.append(order)
    return orders


def encode_prompts(blocks: list[dict], prior: dict | None) -> list[dict]:
    known: dict[str, dict] = {}
    for raw in _objects(prior or {}, "prompts"):
        known.setdefault(_identifier(raw.get("identifier")), raw)  # the first one is the block
    present = {block["identifier"] for block in blocks}
    after: dict[str | None, list[dict]] = {}
    for before, identifier, raw in shadowed_prompts(prior):
        if identifier in present:  # a shadowed prompt whose block was removed would come alive: dropped
            after.setdefault(before if before is None or before in present else identifier, []).append(raw)
    out = list(after.get(None, []))
    for block in blocks:
        raw = known.get(block["identifier"])
        out.append(encode_fields(PROMPT_FIELDS, block, raw) if raw is not None else _new_prompt(block))
        out.extend(after.get(block["identifier"], []))
    return out


def _new_prompt(block: dict) -> dict:
    native = encode_fields(PROMPT_FIELDS, block, None)
    if block["enabled"]:
        del native["enabled"]  # the orders say what is on; SillyTavern's prompts carry no flag
    if block["marker"]:  # markers have no text or role of their own
        for key, empty in (("content", ""), ("role", "system")):
            if native.get(key) == empty:
                del native[key]
    return native


def encode_orders(orders: list[dict], prior: dict | None) -> list[dict]:
    known = {_target(raw.get("character_id")): raw for raw in _objects(prior or {}, "prompt_order")}
    out = []
    for order in orders:
        raw = known.get(order["target"])
        native = encode_fields(ORDER_FIELDS, order, raw)
        native["order"] = _encode_items(order["items"], _objects(raw, "order") if raw is not None else [])
        out.append(native)
    return out


def _encode_items(items: list[dict], prior_items: list[dict]) -> list[dict]:
    by_identity: dict[tuple[str, int], dict] = {}
    counts: dict[str, int] = {}
    for raw in prior_items:
        identifier = _identifier(raw.get("identifier"))
        by_identity[(identifier, counts.get(identifier, 0))] = raw
        counts[identifier] = counts.get(identifier, 0) + 1
    counts.clear()
    out = []
    for item in items:
        occurrence = counts.get(item["identifier"], 0)
        counts[item["identifier"]] = occurrence + 1
        out.append(encode_fields(ITEM_FIELDS, item, by_identity.get((item["identifier"], occurrence))))
    return out


def global_order_for(blocks: list[dict]) -> list[dict]:
    """The one global order a new file gets when the piece names none, so the blocks stay in use."""
    return encode_orders(
        [{"target": "global", "items": [{"identifier": b["identifier"], "enabled": b["enabled"]} for b in blocks]}],
        None,
    )


def _objects(document: dict, key: str) -> list[dict]:
    value = document.get(key, MISSING)
    if value is MISSING or value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise BunzaiError(
            "corrupt_file",
            f"the preset's `{key}` is not a list of objects",
            "SillyTavern writes prompts and prompt_order as lists of objects",
        )
    return value
