"""Prompt-block bookkeeping shared by the preset capabilities.

A block lives in three places: `prompts` (the block itself), every `orders[].items` that
lists it (its place and on/off state per order), and the `groups` naming it. Adding,
renaming and removing keep the three in step.
"""

from __future__ import annotations

from typing import Literal

from bunzai.capabilities.common.patching import refuse
from bunzai.capabilities.common.positions import Placement, insertion_index, unique_key
from bunzai.model.ids import slugify
from bunzai.model.preset import active_order_index

OrdersMode = Literal["all", "global", "none"]
ORDERS_MODE_DESCRIPTION = (
    "Which prompt orders list the new blocks: all (every order, global and per character), "
    "global (only the global order), none (blocks only; a frontend without an order entry leaves them out)."
)


def block_identifiers(body: dict) -> list[str]:
    return [block["identifier"] for block in body["prompts"]]


def fill_identifiers(blocks: list[dict], taken: set[str]) -> list[str]:
    """Give blocks without an identifier one made from their name; return the warnings."""
    warnings = []
    for block in blocks:
        if not block["identifier"]:
            block["identifier"] = unique_key(slugify(block["name"]) or "block", taken)
            warnings.append(f"block {block['name']!r} was given the identifier {block['identifier']!r}")
        taken.add(block["identifier"])
    return warnings


def insert_blocks(
    body: dict, blocks: list[dict], placement: Placement, mode: OrdersMode, enabled: dict[str, bool] | None = None
) -> None:
    """Put `blocks` into `prompts` at `placement` and into the orders `mode` names.

    In an order, the blocks go beside the anchor block when the order lists it; else before
    the first block that follows them in the block list and that the order lists (the order,
    not the list, is what a frontend sends), else at its end. Their order entry is on when
    `enabled` (default: the block's own flag) says so.
    """
    index = insertion_index(body["prompts"], "identifier", placement, "prompt block")
    following = [block["identifier"] for block in body["prompts"][index:]]
    body["prompts"][index:index] = blocks
    anchor = placement.before if placement.before is not None else placement.after
    for order in orders_named(body, mode):
        items = order["items"]
        new_items = [
            {"identifier": block["identifier"], "enabled": (enabled or {}).get(block["identifier"], block["enabled"])}
            for block in blocks
        ]
        at = _order_slot([item["identifier"] for item in items], anchor, placement.after is not None, following)
        items[at:at] = new_items


def list_blocks(body: dict, order: dict, identifiers: list[str]) -> None:
    """Put blocks of the preset that `order` does not list into it, switched on, each before
    the first block that follows it in the block list and that the order lists (else at its end)."""
    names = block_identifiers(body)
    for name in identifiers:
        listed = [item["identifier"] for item in order["items"]]
        at = _order_slot(listed, None, False, names[names.index(name) + 1 :])
        order["items"].insert(at, {"identifier": name, "enabled": True})


def orders_named(body: dict, mode: OrdersMode) -> list[dict]:
    """The prompt orders an `add_to_orders` mode names."""
    if mode == "none":
        return []
    if mode == "global":
        active = active_order_index([order["target"] for order in body["orders"]])
        return [body["orders"][active]] if active is not None else []
    return body["orders"]


def _order_slot(listed: list[str], anchor, after: bool, following: list[str]) -> int:
    """Where new blocks go in an order listing `listed` (see insert_blocks)."""
    if anchor is not None and anchor in listed:
        return listed.index(anchor) + (1 if after else 0)
    members = set(listed)
    next_listed = next((name for name in following if name in members), None)
    return listed.index(next_listed) if next_listed is not None else len(listed)


def rename_block(body: dict, old: str, new: str) -> None:
    if new in block_identifiers(body):
        raise refuse(f"a prompt block {new!r} already exists", "pick another new_identifier")
    for block in body["prompts"]:
        if block["identifier"] == old:
            block["identifier"] = new
    for order in body["orders"]:
        for item in order["items"]:
            if item["identifier"] == old:
                item["identifier"] = new
    for group in body["groups"]:
        group["blocks"] = [new if name == old else name for name in group["blocks"]]


def remove_blocks(body: dict, identifiers: set[str]) -> None:
    body["prompts"] = [block for block in body["prompts"] if block["identifier"] not in identifiers]
    for order in body["orders"]:
        order["items"] = [item for item in order["items"] if item["identifier"] not in identifiers]
    for group in body["groups"]:
        group["blocks"] = [name for name in group["blocks"] if name not in identifiers]


def check_known(body: dict, identifiers: list[str], what: str = "prompt block") -> None:
    known = block_identifiers(body)
    unknown = [name for name in identifiers if name not in known]
    if unknown:
        raise refuse(
            f"no {what} " + ", ".join(map(repr, unknown)), "known: " + (", ".join(map(repr, known)) or "(none)")
        )


def check_group_blocks(blocks: list[str], group_id: str, others: list[dict]) -> list[str]:
    """Refuse a block a group lists twice; warn of each block that one of `others` (the preset's
    other groups) holds too. Marinara, the one platform with groups, files a section under one
    group, so its export keeps such a block in the last group only."""
    twice = list(dict.fromkeys(name for index, name in enumerate(blocks) if name in blocks[:index]))
    if twice:
        raise refuse(
            f"group {group_id!r} lists {', '.join(map(repr, twice))} more than once",
            "name each block once in a group",
        )
    warnings = []
    for other in others:
        shared = [name for name in blocks if name in other["blocks"]]
        if shared:
            warnings.append(
                f"group {group_id!r} shares {', '.join(map(repr, shared))} with group {other['id']!r}: "
                "a Marinara section belongs to one group, so an export keeps each in the last group naming it"
            )
    return warnings


def marker_warnings(blocks: list[dict]) -> list[str]:
    return [
        f"block {block['identifier']!r} is a marker: the frontend fills it and ignores its content"
        for block in blocks
        if block["marker"] and block["content"]
    ]
