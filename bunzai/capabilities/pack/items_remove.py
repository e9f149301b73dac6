"""pack.items.remove: expression images removed, with their places in groups and their URL links."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.pack_items import drop_links
from bunzai.capabilities.common.patching import piece_json, propose
from bunzai.capabilities.common.positions import index_of
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class ItemsRemoveInput(Model):
    """The items to remove, by id."""

    ids: list[str] = Field(min_length=1, description="Ids of the items to remove.")


def preview_items_remove(entity, data: ItemsRemoveInput) -> Preview:
    doc = piece_json(entity)
    body = doc["body"]
    for item_id in data.ids:
        index_of(body["items"], "id", item_id, "pack item")
    gone = set(data.ids)
    body["items"] = [item for item in body["items"] if item["id"] not in gone]
    for group in body["groups"]:
        group["items"] = [name for name in group["items"] if name not in gone]
    drop_links(doc, gone)
    warnings = []
    if body["default_face"] and body["default_face"] not in {item["label"] for item in body["items"]}:
        warnings.append(f"no item is labelled {body['default_face']!r} any more; the pack has no default face now")
        body["default_face"] = ""
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="pack.items.remove",
    kind="pack",
    area="items",
    action="remove",
    summary="Remove expression images from a pack (and from its groups).",
    aliases=("delete sprite", "remove expression", "remove image", "delete expression"),
    input_model=ItemsRemoveInput,
    preview=preview_items_remove,
)
