"""pack.items.add: expression images added, from files, a folder of sprites, a data: URI, an http(s) URL
or a stored asset."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.pack_items import (
    FROM_FOLDER_DESCRIPTION,
    Added,
    PackItemInput,
    folder_items,
    new_item,
)
from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.common.positions import Placement, insertion_index
from bunzai.capabilities.contract import Capability, Preview


class ItemsAddInput(Placement):
    """Items to add, and where (before/after an item id, at an index; default the end)."""

    items: list[PackItemInput] = Field(default_factory=list, description="The new items, in order.")
    from_folder: str | None = Field(
        default=None,
        description=FROM_FOLDER_DESCRIPTION + " Its items follow `items`; "
        "when the pack has no default face, neutral (if added) becomes it.",
    )


def preview_items_add(entity, data: ItemsAddInput) -> Preview:
    doc = piece_json(entity)
    body = doc["body"]
    index = insertion_index(body["items"], "id", data, "pack item")
    taken = {item["id"] for item in body["items"]}
    added = Added()
    if not data.items and data.from_folder is None:
        raise refuse("pack.items.add needs `items` or `from_folder`", 'e.g. {"from_folder": "sprites/"}')
    new = [new_item(doc, spec, taken, added) for spec in data.items]
    if data.from_folder is not None:
        new += folder_items(doc, data.from_folder, taken, added)
        if not body.get("default_face"):
            body["default_face"] = "neutral" if "neutral" in {item["label"] for item in new} else ""
    body["items"][index:index] = new
    return Preview(entity=propose(doc), warnings=added.warnings, attachments=added.attachments)


CAPABILITY = Capability(
    id="pack.items.add",
    kind="pack",
    area="items",
    action="add",
    summary=(
        "Add expression images to a pack from files, a folder of sprites, a data: URI, an http(s) URL "
        "or a stored asset."
    ),
    aliases=("add sprite", "add expression", "new sprite", "add image", "upload sprite", "sprites from folder"),
    input_model=ItemsAddInput,
    preview=preview_items_add,
)
