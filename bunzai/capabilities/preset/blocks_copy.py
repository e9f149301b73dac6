"""preset.blocks.copy: prompt blocks copied from ANOTHER preset into this one.

The capability cannot read the studio, so it declares a Need: the runner resolves the
`source` ref and puts that preset's canonical JSON in `source_preset` before preview.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.common.positions import Placement, unique_key
from bunzai.capabilities.common.preset_blocks import (
    ORDERS_MODE_DESCRIPTION,
    OrdersMode,
    block_identifiers,
    insert_blocks,
    orders_named,
    remove_blocks,
)
from bunzai.capabilities.contract import Capability, Need, Preview
from bunzai.model.base import JsonObject
from bunzai.model.preset import active_order_index
from bunzai.validate import validate_piece


class BlocksCopyInput(Placement):
    """Which blocks of which preset, where they go here, and what happens on a clash."""

    source: str = Field(min_length=1, description="The preset to copy from: its id, or preset/<id>.")
    identifiers: list[str] = Field(
        min_length=1, description="Identifiers of the source blocks to copy, in the order wanted."
    )
    on_conflict: Literal["refuse", "replace", "rename"] = Field(
        default="refuse",
        description="When this preset already has a block with that identifier: refuse, replace it (the copy "
        "takes its place in the list, orders and groups unless before, after or at is given), "
        "or rename the copy (identifier-2 ...).",
    )
    add_to_orders: OrdersMode = Field(default="all", description=ORDERS_MODE_DESCRIPTION)
    source_preset: JsonObject | None = Field(
        default=None,
        description="Filled by bunzai from `source` (the stored preset, canonical JSON); give it only to copy "
        "from a preset that is not stored.",
    )


def preview_blocks_copy(entity, data: BlocksCopyInput) -> Preview:
    if data.source_preset is None:
        raise refuse("the source preset was not loaded", "run this through `bunzai cap run`, which loads `source`")
    source = validate_piece(data.source_preset)
    if source.kind != "preset":
        raise refuse(
            f"the source is a {source.kind}, not a preset",
            "name a stored preset in `source`, or give a preset's canonical JSON as source_preset",
        )
    by_id = {block.identifier: block for block in source.body.prompts}
    unknown = [name for name in data.identifiers if name not in by_id]
    if unknown:
        raise refuse(
            f"preset {source.id!r} has no block " + ", ".join(map(repr, unknown)),
            "its blocks: " + (", ".join(map(repr, by_id)) or "(none)"),
        )
    if len(set(data.identifiers)) != len(data.identifiers):
        raise refuse("`identifiers` lists a block twice", "list each identifier once")
    source_state = _global_state(source)
    doc = piece_json(entity)
    body = doc["body"]
    taken = set(block_identifiers(body))
    blocks, enabled, warnings = [], {}, []
    for name in data.identifiers:
        block = by_id[name].model_dump(mode="json")
        if name in taken:
            if data.on_conflict == "refuse":
                raise refuse(f"this preset already has a block {name!r}", "set on_conflict to replace or rename")
            if data.on_conflict == "rename":
                block["identifier"] = unique_key(name, taken | set(data.identifiers))
                warnings.append(f"block {name!r} was copied as {block['identifier']!r}")
            else:
                warnings.append(f"block {name!r} replaces this preset's block of that identifier")
        taken.add(block["identifier"])
        blocks.append(block)
        enabled[block["identifier"]] = source_state.get(name, block["enabled"])
    if data.on_conflict == "replace":
        replaced = {block["identifier"] for block in blocks} & set(block_identifiers(body))
        _check_anchor(data, replaced)
        if _placed(data):
            remove_blocks(body, replaced)
        else:
            blocks = _replace_in_place(body, blocks, replaced, orders_named(body, data.add_to_orders), enabled)
    insert_blocks(body, blocks, data, data.add_to_orders, enabled)
    return Preview(entity=propose(doc), warnings=warnings)


def _global_state(source) -> dict[str, bool]:
    """On/off of each block in the source's global order (what a person saw there)."""
    orders = source.body.orders
    active = active_order_index([order.target for order in orders])
    return {} if active is None else {item.identifier: item.enabled for item in orders[active].items}


def _placed(data: BlocksCopyInput) -> bool:
    return any(value is not None for value in (data.before, data.after, data.at))


def _replace_in_place(
    body: dict, blocks: list[dict], replaced: set[str], orders: list[dict], enabled: dict[str, bool]
) -> list[dict]:
    """Put the copies of `replaced` blocks where those blocks are: in the block list, in every
    order listing them (the orders named take the copy's on/off) and in their groups, so a
    replaced block is sent where it was; return the other copies, still to place."""
    at = {block["identifier"]: index for index, block in enumerate(body["prompts"])}
    for block in blocks:
        if block["identifier"] in replaced:
            body["prompts"][at[block["identifier"]]] = block
    for order in orders:
        for item in order["items"]:
            if item["identifier"] in replaced:
                item["enabled"] = enabled[item["identifier"]]
    return [block for block in blocks if block["identifier"] not in replaced]


def _check_anchor(data: BlocksCopyInput, replaced: set[str]) -> None:
    anchor = data.before if data.before is not None else data.after
    if anchor in replaced:
        raise refuse(f"the placement anchor {anchor!r} is one of the blocks being replaced", "anchor on another block")


CAPABILITY = Capability(
    id="preset.blocks.copy",
    kind="preset",
    area="blocks",
    action="copy",
    summary="Copy prompt blocks from another preset into this one, placed in its block list and orders.",
    aliases=("copy prompt from preset", "import prompt blocks", "copy blocks", "reuse prompt", "borrow prompt"),
    input_model=BlocksCopyInput,
    preview=preview_blocks_copy,
    needs=(Need(ref="source", kind="preset", into="source_preset"),),
)
