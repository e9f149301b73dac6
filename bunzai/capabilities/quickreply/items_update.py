"""quickreply.items.update: one button's label, message, icon or automation."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import given, merge_patch, nothing_given, piece_json, propose, refuse
from bunzai.capabilities.common.positions import index_of
from bunzai.capabilities.common.quickreply_items import ItemFields, item_warnings
from bunzai.capabilities.contract import Capability, Preview


class ItemsUpdateInput(ItemFields):
    """The button, by id, and the fields to change; only those given change."""

    id: int = Field(ge=0, description="Id of the quick reply to change.")
    new_id: int | None = Field(default=None, ge=0, description="A new id, unique in the set.")


def preview_items_update(entity, data: ItemsUpdateInput) -> Preview:
    doc = piece_json(entity)
    items = doc["body"]["items"]
    index = index_of(items, "id", data.id, "quick reply")
    patch = given(data, exclude={"id", "new_id"})
    if data.new_id is not None and data.new_id != data.id:
        if any(item["id"] == data.new_id for item in items):
            raise refuse(f"the set already has a quick reply {data.new_id}", "pick a new_id no other quick reply has")
        patch["id"] = data.new_id
    items[index] = merge_patch(items[index], patch)
    proposed = propose(doc)
    warnings = nothing_given(given(data, exclude={"id"}), "item") + item_warnings(items[index])
    return Preview(entity=proposed, warnings=warnings)


CAPABILITY = Capability(
    id="quickreply.items.update",
    kind="quickreply",
    area="items",
    action="update",
    summary="Edit one quick-reply button: label, message, icon, tooltip, visibility or auto-execution.",
    aliases=("edit quick reply", "edit button", "change button label", "edit qr"),
    input_model=ItemsUpdateInput,
    preview=preview_items_update,
)
