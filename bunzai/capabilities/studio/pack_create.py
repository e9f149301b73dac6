"""studio.pack.create: a new expression pack whose items come as data: URIs, URLs or stored assets."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.create_inputs import body_given, create_input_model, new_piece_json
from bunzai.capabilities.common.pack_items import Added, PackItemInput, new_item
from bunzai.capabilities.common.patching import propose, refuse
from bunzai.capabilities.contract import Capability, Preview

PackCreateInput = create_input_model(
    "pack", "PackCreateInput",
    "A new expression pack: `name`, an optional `id`, items (label, media as a data: URI, an http(s) URL or a "
    "stored asset, MIME type), the default face (an item's label) and named groups of item ids.",
    replace={"items": (list[PackItemInput], Field(default_factory=list, description="Images, in order; an item "
                                                  "without an id gets its label as a slug."))},
)


def preview_pack_create(entity, data) -> Preview:
    if entity is not None:
        raise refuse("studio.pack.create makes a new piece; it takes no existing one")
    body = body_given(data, exclude=("items",))
    doc = new_piece_json("pack", data, body)
    doc["assets"] = []
    taken: set[str] = set()
    added = Added()
    body["items"] = [new_item(doc, spec, taken, added) for spec in data.items]
    if not doc["assets"]:
        del doc["assets"]
    return Preview(entity=propose(doc), warnings=added.warnings, attachments=added.attachments)


CAPABILITY = Capability(
    id="studio.pack.create", kind="pack", domain="studio", mode="create", area="pack", action="create",
    summary="Create an expression pack: items with ids, labels, media (data: URI, URL or asset), MIME types, default face.",
    aliases=("new sprite pack", "new expression pack", "create sprites", "new pack"),
    input_model=PackCreateInput, preview=preview_pack_create,
)
