"""pack.items.add: expression images added, from a data: URI, an http(s) URL or a stored asset."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.pack_items import Added, PackItemInput, new_item
from bunzai.capabilities.common.patching import piece_json, propose
from bunzai.capabilities.common.positions import Placement, insertion_index
from bunzai.capabilities.contract import Capability, Preview


class ItemsAddInput(Placement):
    """Items to add, and where (before/after an item id, at an index; default the end)."""

    items: list[PackItemInput] = Field(min_length=1, description="The new items, in order.")


def preview_items_add(entity, data: ItemsAddInput) -> Preview:
    doc = piece_json(entity)
    body = doc["body"]
    index = insertion_index(body["items"], "id", data, "pack item")
    taken = {item["id"] for item in body["items"]}
    added = Added()
    new = [new_item(doc, spec, taken, added) for spec in data.items]
    body["items"][index:index] = new
    return Preview(entity=propose(doc), warnings=added.warnings, attachments=added.attachments)


CAPABILITY = Capability(
    id="pack.items.add", kind="pack", area="items", action="add",
    summary="Add expression images to a pack from a data: URI, an http(s) URL or a stored asset.",
    aliases=("add sprite", "add expression", "new sprite", "add image", "upload sprite"),
    input_model=ItemsAddInput, preview=preview_items_add,
)
