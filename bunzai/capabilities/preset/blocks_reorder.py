"""preset.blocks.reorder: the order prompt blocks are assembled in, for one prompt order."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.common.positions import Reorder, reordered
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.preset import order_index


class BlocksReorderInput(Reorder):
    """A new order of block identifiers (complete `order`, or `move` one before/after another or `to` an index)."""

    target: str = Field(
        default="global",
        description=(
            "Which prompt order: 'global' (the one sent for every character) or another order's platform key. "
            "A preset without orders reorders its block list."
        ),
    )


def preview_blocks_reorder(entity, data: BlocksReorderInput) -> Preview:
    doc = piece_json(entity)
    body = doc["body"]
    if not body["orders"]:
        body["prompts"] = reordered(body["prompts"], "identifier", data, "prompt block")
        return Preview(entity=propose(doc))
    index = order_index([order["target"] for order in body["orders"]], data.target)
    if index is not None:
        order = body["orders"][index]
        order["items"] = reordered(order["items"], "identifier", data, "block in this order")
        return Preview(entity=propose(doc))
    raise refuse(
        f"the preset has no prompt order {data.target!r}",
        "orders: " + ", ".join(repr(order["target"]) for order in body["orders"]),
    )


CAPABILITY = Capability(
    id="preset.blocks.reorder",
    kind="preset",
    area="blocks",
    action="reorder",
    summary="Reorder the prompt blocks of a preset's prompt order (global or per character).",
    aliases=("reorder prompts", "move prompt", "prompt order", "move block", "sort prompts"),
    input_model=BlocksReorderInput,
    preview=preview_blocks_reorder,
)
