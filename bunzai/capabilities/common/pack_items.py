"""Pack items given to capabilities: id, label, media ref (file, data: URI, URL or stored asset), MIME type,
or a whole folder of sprites (`from_folder`), named by file stem as SillyTavern names expression sprites.

A file or data: URI becomes a stored asset through the preview's attachments. A URL is not
fetched: the item keeps no stored image and the URL is kept as the piece's asset link
(role `emotion`, named after the item id), so it travels with the pack.
"""

from __future__ import annotations

from pydantic import Field

from pathlib import Path

from bunzai.adapters.sillytavern.sprites import label_of
from bunzai.capabilities.common.media_refs import MEDIA_REF_DESCRIPTION, VISUALS, folder_files, resolve_media
from bunzai.capabilities.common.patching import refuse
from bunzai.capabilities.common.positions import unique_key
from bunzai.model.base import AssetRef, Model
from bunzai.model.ids import id_problem, slugify

URL_LINK_ROLE = "emotion"


class PackItemInput(Model):
    """One expression image to add."""

    id: str | None = Field(default=None, description="Item id, unique in the pack; default: the label as a slug.")
    label: str = Field(min_length=1, description="Expression label, e.g. joy, neutral (several items may share one).")
    media: str | AssetRef | None = Field(
        default=None, description=MEDIA_REF_DESCRIPTION + " Omit for an item without an image yet."
    )
    mime: str | None = Field(default=None, description="MIME type of the image; default: the media's.")


class Added:
    """What adding or changing items contributes to a preview."""

    def __init__(self) -> None:
        self.attachments: dict[str, dict] = {}
        self.warnings: list[str] = []


def checked_id(value: str, what: str) -> str:
    problem = id_problem(value)
    if problem:
        raise refuse(f"{what}: id {value!r}: {problem}", "item ids are lowercase slugs like joy or joy-2")
    return value


def new_item(doc: dict, spec: PackItemInput, taken: set[str], added: Added) -> dict:
    """The JSON of a new item (its URL link, if any, appended to doc['assets'])."""
    if spec.id is not None:
        item_id = checked_id(spec.id, f"item {spec.label!r}")
        if item_id in taken:
            raise refuse(
                f"the pack already has an item {item_id!r}", "give another id, or update it with pack.items.update"
            )
    else:
        item_id = unique_key(slugify(spec.label) or "item", taken)
    taken.add(item_id)
    item = {"id": item_id, "label": spec.label, "asset": None, "mime": spec.mime or ""}
    if spec.media is not None:
        set_media(doc, item, spec.media, spec.mime, added)
    return item


def set_media(doc: dict, item: dict, ref: str | AssetRef, mime: str | None, added: Added) -> None:
    """Point `item` at the media `ref` stands for (dropping any URL link it had)."""
    media = resolve_media(ref, f"item {item['id']!r}", accept=VISUALS, declared=mime)
    drop_links(doc, {item["id"]})
    item["asset"] = media.asset.model_dump(mode="json") if media.asset else None
    item["mime"] = media.mime if media.attachments else mime or media.mime
    if media.url is not None:
        doc["assets"].append(
            {"role": URL_LINK_ROLE, "name": item["id"], "ext": media.ext or "unknown", "asset": None, "uri": media.url}
        )
    added.attachments |= media.attachments
    added.warnings += media.warnings


def drop_links(doc: dict, item_ids: set[str]) -> None:
    doc["assets"] = [
        link
        for link in doc["assets"]
        if not (link["role"] == URL_LINK_ROLE and link["asset"] is None and link["name"] in item_ids)
    ]


def rename_links(doc: dict, old: str, new: str) -> None:
    for link in doc["assets"]:
        if link["role"] == URL_LINK_ROLE and link["asset"] is None and link["name"] == old:
            link["name"] = new


FROM_FOLDER_DESCRIPTION = (
    "A folder of sprite images (relative to the working folder): one item per image, in file-name order, its id "
    "the file stem as a slug and its label the expression SillyTavern reads from the name (joy.png, joy-1.png -> "
    "joy). Files starting with _ and files that are not images by name are skipped."
)
_SPRITE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".avif", ".bmp", ".webm", ".mp4")


def folder_items(doc: dict, folder: str, taken: set[str], added: Added) -> list[dict]:
    """New items for every sprite image in `folder` (ids unique against `taken`)."""
    items = []
    for path in folder_files(folder, "from_folder"):
        if path.suffix.lower() not in _SPRITE_SUFFIXES:
            added.warnings.append(f"from_folder: {path.name} is not an image by its name; skipped")
            continue
        item_id = unique_key(slugify(path.stem) or "sprite", taken)
        taken.add(item_id)
        item = {"id": item_id, "label": label_of(path.name), "asset": None, "mime": ""}
        set_media(doc, item, "@" + str(Path(path)), None, added)
        items.append(item)
    if not items:
        raise refuse(f"from_folder: {folder} holds no sprite images", "sprites are .png, .webp, .gif, .jpg ... files")
    return items


def face_from_labels(items: list[dict]) -> str:
    """SillyTavern's choice of face: `neutral` when a sprite has it, else the first label."""
    labels = [item["label"] for item in items]
    return "neutral" if "neutral" in labels else labels[0] if labels else ""
