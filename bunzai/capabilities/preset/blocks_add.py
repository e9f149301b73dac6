"""preset.blocks.add: new prompt blocks, placed in the block list and in the prompt orders."""

from __future__ import annotations

from collections import Counter

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.common.positions import Placement
from bunzai.capabilities.common.preset_blocks import (
    ORDERS_MODE_DESCRIPTION,
    OrdersMode,
    block_identifiers,
    fill_identifiers,
    insert_blocks,
    marker_warnings,
)
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.preset import PromptBlock


class BlocksAddInput(Placement):
    """Blocks to add, where (before/after a block identifier, at an index of the block list; default the end),
    and in which orders (there beside the same neighbours as in the list)."""

    blocks: list[PromptBlock] = Field(
        min_length=1,
        description="The new blocks; an empty identifier is made from the name.",
    )
    add_to_orders: OrdersMode = Field(default="all", description=ORDERS_MODE_DESCRIPTION)


def preview_blocks_add(entity, data: BlocksAddInput) -> Preview:
    doc = piece_json(entity)
    body = doc["body"]
    blocks = [block.model_dump(mode="json") for block in data.blocks]
    taken = set(block_identifiers(body))
    clashes = [block["identifier"] for block in blocks if block["identifier"] in taken]
    if clashes:
        raise refuse(
            "the preset already has block " + ", ".join(map(repr, clashes)),
            "update it with preset.blocks.update, or give the new block another identifier",
        )
    given_ids = [block["identifier"] for block in blocks if block["identifier"]]
    repeated = sorted(name for name, count in Counter(given_ids).items() if count > 1)
    if repeated:
        raise refuse(
            "two new blocks share the identifier " + ", ".join(map(repr, repeated)),
            "give each block its own identifier, or leave it empty to have one made from the name",
        )
    # a made identifier must not take one a later block of this input gives
    warnings = fill_identifiers(blocks, taken | set(given_ids))
    insert_blocks(body, blocks, data, data.add_to_orders)
    warnings += marker_warnings(blocks)
    if data.add_to_orders != "none" and not body["orders"] and entity.body.family == "chat_completion":
        warnings.append("the preset has no prompt order; the blocks are listed but no order places them")
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="preset.blocks.add",
    kind="preset",
    area="blocks",
    action="add",
    summary="Add prompt blocks to a preset, placed in its block list and prompt orders.",
    aliases=("add prompt", "new prompt block", "add block", "add prompt block", "add instruction"),
    input_model=BlocksAddInput,
    preview=preview_blocks_add,
)
