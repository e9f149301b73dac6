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

    In an order, the blocks go beside the anchor block when the order lists it, else at its
    end; their order entry is on when `enabled` (default: the block's own flag) says so.
    """
    index = insertion_index(body["prompts"], "identifier", placement, "prompt block")
    body["prompts"][index:index] = blocks
    if mode == "none":
        return
    orders = body["orders"]
    if mode == "global":
        active = active_order_index([order["target"] for order in orders])
        orders = [orders[active]] if active is not None else []
    for order in orders:
        items = order["items"]
        new_items = [
            {"identifier": block["identifier"], "enabled": (enabled or {}).get(block["identifier"], block["enabled"])}
            for block in blocks
        ]
        listed = [item["identifier"] for item in items]
        anchor = placement.before if placement.before is not None else placement.after
        if anchor is not None and anchor in listed:
            at = listed.index(anchor) + (0 if placement.before is not None else 1)
        else:
            at = len(items)
        items[at:at] = new_items


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


def marker_warnings(blocks: list[dict]) -> list[str]:
    return [
        f"block {block['identifier']!r} is a marker: the frontend fills it and ignores its content"
        for block in blocks
        if block["marker"] and block["content"]
    ]
