"""quickreply.items.remove: buttons taken out of a set."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose
from bunzai.capabilities.common.positions import index_of
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class ItemsRemoveInput(Model):
    """The buttons to remove, by id."""

    ids: list[int] = Field(min_length=1, description="Ids of the quick replies to remove.")


def preview_items_remove(entity, data: ItemsRemoveInput) -> Preview:
    doc = piece_json(entity)
    items = doc["body"]["items"]
    for item_id in data.ids:
        index_of(items, "id", item_id, "quick reply")
    doc["body"]["items"] = [item for item in items if item["id"] not in set(data.ids)]
    return Preview(entity=propose(doc))


CAPABILITY = Capability(
    id="quickreply.items.remove",
    kind="quickreply",
    area="items",
    action="remove",
    summary="Remove quick-reply buttons from a set.",
    aliases=("delete quick reply", "remove button", "delete button", "delete qr"),
    input_model=ItemsRemoveInput,
    preview=preview_items_remove,
)
