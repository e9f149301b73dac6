"""pack.items.update: one item's id, label, image or MIME type."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.media_refs import MEDIA_REF_DESCRIPTION
from bunzai.capabilities.common.pack_items import Added, checked_id, rename_links, set_media
from bunzai.capabilities.common.patching import nothing_given, given, piece_json, propose, refuse
from bunzai.capabilities.common.positions import index_of
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import AssetRef, Model


class ItemsUpdateInput(Model):
    """The item, by id, and what to change; only the fields given change."""

    id: str = Field(description="Id of the item to change.")
    new_id: str | None = Field(default=None, description="A new id; groups follow.")
    label: str | None = Field(default=None, min_length=1, description="Expression label, e.g. joy.")
    media: str | AssetRef | None = Field(default=None, description="A new image. " + MEDIA_REF_DESCRIPTION)
    mime: str | None = Field(default=None, description="MIME type of the image.")


def preview_items_update(entity, data: ItemsUpdateInput) -> Preview:
    doc = piece_json(entity)
    body = doc["body"]
    index = index_of(body["items"], "id", data.id, "pack item")
    item = body["items"][index]
    added = Added()
    old_label = item["label"]
    if data.media is not None:
        set_media(doc, item, data.media, data.mime, added)
    elif data.mime is not None:
        item["mime"] = data.mime
    if data.label is not None:
        item["label"] = data.label
        others = any(other["label"] == old_label for other in body["items"] if other is not item)
        if body["default_face"] == old_label and not others and data.label != old_label:
            body["default_face"] = data.label
            added.warnings.append(f"the default face follows the label: {old_label!r} -> {data.label!r}")
    if data.new_id is not None and data.new_id != data.id:
        new_id = checked_id(data.new_id, f"item {data.id!r}")
        if any(other["id"] == new_id for other in body["items"]):
            raise refuse(f"the pack already has an item {new_id!r}", "pick a new_id no other item has")
        item["id"] = new_id
        rename_links(doc, data.id, new_id)
        for group in body["groups"]:
            group["items"] = [new_id if name == data.id else name for name in group["items"]]
    warnings = nothing_given(given(data, exclude={"id"}), "item") + added.warnings
    return Preview(entity=propose(doc), warnings=warnings, attachments=added.attachments)


CAPABILITY = Capability(
    id="pack.items.update",
    kind="pack",
    area="items",
    action="update",
    summary="Change one expression image of a pack: its id, label, image or MIME type.",
    aliases=("replace sprite", "change sprite image", "relabel sprite", "edit expression", "rename sprite"),
    input_model=ItemsUpdateInput,
    preview=preview_items_update,
)
