"""Files travelling with a preset or a promptbook (`body.attachments`): added, replaced and removed
from files (or any media reference), each with a name, a MIME type and an enabled flag.

An attachment is named by `name` (unique in the piece, as the one handle people have). Its bytes
come in the one media reference form (`@path`, data: URI, stored asset); a URL is refused, since
an attachment travels with its bytes. The type is sniffed from the bytes (PNG, JPEG, WebP, GIF,
AVIF, PDF, text); a declared `mime` that disagrees is a warning and the sniffed type is kept.
"""

from __future__ import annotations

from pydantic import Field

from bunzai import limits
from bunzai.capabilities.common.media_refs import MEDIA_REF_DESCRIPTION, resolve_media
from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.contract import Preview
from bunzai.model.base import AssetRef, Model


class AttachmentAdd(Model):
    """A new attachment."""

    media: str | AssetRef = Field(
        description=MEDIA_REF_DESCRIPTION + " URLs are refused: an attachment carries its bytes."
    )
    name: str | None = Field(
        default=None, min_length=1, description="Name shown to people, unique here; default: the file name."
    )
    mime: str | None = Field(
        default=None, description="Declared MIME type; checked against the bytes (a mismatch is a warning)."
    )
    enabled: bool = Field(default=True, description="Whether it is sent.")


class AttachmentReplace(Model):
    """Changes to an attachment named `name`; only the fields given change."""

    name: str = Field(min_length=1, description="Name of the attachment to change.")
    media: str | AssetRef | None = Field(default=None, description="New bytes. " + MEDIA_REF_DESCRIPTION)
    new_name: str | None = Field(default=None, min_length=1, description="A new name.")
    mime: str | None = Field(default=None, description="Declared MIME type (checked against the bytes).")
    enabled: bool | None = Field(default=None, description="Whether it is sent.")


class AttachmentsInput(Model):
    """Attachments to remove, replace and add (in that order)."""

    remove: list[str] = Field(default_factory=list, description="Names of attachments to remove.")
    replace: list[AttachmentReplace] = Field(default_factory=list, description="Attachments to change.")
    add: list[AttachmentAdd] = Field(
        default_factory=list, max_length=limits.MEDIA_REFS_MAX, description="Attachments to add, at the end."
    )


def preview_attachments(entity, data: AttachmentsInput) -> Preview:
    if not (data.remove or data.replace or data.add):
        raise refuse("give attachments to add, replace or remove", 'e.g. {"add": [{"media": "@guide.pdf"}]}')
    doc = piece_json(entity)
    items: list[dict] = doc["body"].setdefault("attachments", [])
    attachments: dict[str, dict] = {}
    warnings: list[str] = []

    def stored(ref, what: str, mime: str | None) -> dict:
        media = resolve_media(ref, what, accept=None, declared=mime)
        if media.asset is None:
            raise refuse(
                f"{what}: an attachment travels with its bytes; a URL is not downloaded",
                "download the file and give it as @path",
            )
        attachments.update(media.attachments)
        warnings.extend(media.warnings)
        return {"asset": media.asset.model_dump(mode="json"), "mime": media.mime, "name": media.name}

    def index_of(name: str) -> int:
        found = [i for i, item in enumerate(items) if item["name"] == name]
        if not found:
            known = ", ".join(repr(item["name"]) for item in items) or "none"
            raise refuse(
                f"there is no attachment named {name!r} (attachments: {known})",
                "name one of the attachments listed; a new one goes in `add`",
            )
        return found[0]

    for name in data.remove:
        del items[index_of(name)]
    for change in data.replace:
        item = items[index_of(change.name)]
        if change.media is not None:
            got = stored(change.media, f"attachment {change.name!r}", change.mime)
            item["asset"], item["mime"] = got["asset"], got["mime"]
        elif change.mime is not None:
            item["mime"] = change.mime
        if change.new_name is not None:
            item["name"] = change.new_name
        if change.enabled is not None:
            item["enabled"] = change.enabled
    for index, new in enumerate(data.add):
        got = stored(new.media, f"add[{index}]" + (f" ({new.name})" if new.name else ""), new.mime)
        name = new.name or got["name"]
        if not name:
            raise refuse(f"add[{index}]: give the attachment a name", 'e.g. {"media": "data:...", "name": "guide.pdf"}')
        items.append({"name": name, "mime": got["mime"], "asset": got["asset"], "enabled": new.enabled})
    names = [item["name"] for item in items]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise refuse(f"two attachments would be named {twice[0]!r}", "give `name` to tell them apart")
    return Preview(entity=propose(doc), warnings=warnings, attachments=attachments)
