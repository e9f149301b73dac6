"""quickreply.items.reorder: the order the buttons are shown in."""

from __future__ import annotations

from bunzai.capabilities.common.patching import piece_json, propose
from bunzai.capabilities.common.positions import Reorder, reordered
from bunzai.capabilities.contract import Capability, Preview


class ItemsReorderInput(Reorder):
    """A new order of item ids: the complete `order`, or `move` one before/after another or `to` an index."""


def preview_items_reorder(entity, data: ItemsReorderInput) -> Preview:
    doc = piece_json(entity)
    doc["body"]["items"] = reordered(doc["body"]["items"], "id", data, "quick reply")
    return Preview(entity=propose(doc))


CAPABILITY = Capability(
    id="quickreply.items.reorder",
    kind="quickreply",
    area="items",
    action="reorder",
    summary="Change the order of the buttons of a quick-reply set.",
    aliases=("reorder quick replies", "move button", "sort buttons"),
    input_model=ItemsReorderInput,
    preview=preview_items_reorder,
)
