"""studio.pack.create: a new expression pack whose items come as files, a folder of sprites, data: URIs,
URLs or stored assets."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.create_inputs import body_given, create_input_model, new_piece_json
from bunzai.capabilities.common.pack_items import (
    FROM_FOLDER_DESCRIPTION,
    Added,
    PackItemInput,
    face_from_labels,
    folder_items,
    new_item,
)
from bunzai.capabilities.common.patching import propose, refuse
from bunzai.capabilities.contract import Capability, Preview

PackCreateInput = create_input_model(
    "pack",
    "PackCreateInput",
    "A new expression pack: `name`, an optional `id`, items (label, media as @file, a data: URI, an http(s) URL "
    "or a stored asset, MIME type) or a folder of sprites (`from_folder`), the default face (an item's label; "
    "from a folder: neutral when there is one) and named groups of item ids.",
    replace={
        "items": (
            list[PackItemInput],
            Field(
                default_factory=list, description="Images, in order; an item without an id gets its label as a slug."
            ),
        ),
        "from_folder": (
            str | None,
            Field(default=None, description=FROM_FOLDER_DESCRIPTION + " Its items follow `items`."),
        ),
    },
)


def preview_pack_create(entity, data) -> Preview:
    if entity is not None:
        raise refuse(
            "studio.pack.create makes a new piece; it takes no existing one",
            "a create starts from nothing: give no piece to work on, and name the new piece with --id",
        )
    body = body_given(data, exclude=("items", "from_folder"))
    doc = new_piece_json("pack", data, body)
    doc["assets"] = []
    taken: set[str] = set()
    added = Added()
    body["items"] = [new_item(doc, spec, taken, added) for spec in data.items]
    if data.from_folder is not None:
        body["items"] += folder_items(doc, data.from_folder, taken, added)
        if "default_face" not in body:
            body["default_face"] = face_from_labels(body["items"])
    if not doc["assets"]:
        del doc["assets"]
    return Preview(entity=propose(doc), warnings=added.warnings, attachments=added.attachments)


CAPABILITY = Capability(
    id="studio.pack.create",
    kind="pack",
    domain="studio",
    mode="create",
    area="pack",
    action="create",
    summary="Create an expression pack: items with ids, labels, media (file, folder of sprites, data: URI, URL or "
    "asset), MIME types, default face.",
    aliases=("new sprite pack", "new expression pack", "create sprites", "new pack", "sprites from folder"),
    input_model=PackCreateInput,
    preview=preview_pack_create,
)
