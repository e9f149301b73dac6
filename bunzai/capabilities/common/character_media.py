"""A character's portrait and additional media given to capabilities, in the one media reference form.

The portrait goes to `body.portrait` (the PNG card's image, CCv3's main icon). Additional media
become the piece's named asset links (CCv3 `data.assets`): a role (portrait, background,
expression, other) maps to the link's type (icon, background, emotion, other); a link of the
same type and name is replaced.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai import limits
from bunzai.capabilities.common.media_refs import IMAGES, MEDIA_REF_DESCRIPTION, VISUALS, Media, resolve_media
from bunzai.capabilities.common.patching import refuse
from bunzai.model.base import AssetRef, Model

MediaRole = Literal["portrait", "background", "expression", "other"]
ROLE_TYPE = {"portrait": "icon", "background": "background", "expression": "emotion", "other": "other"}
PORTRAIT_DESCRIPTION = "The main portrait, an image. " + MEDIA_REF_DESCRIPTION


class MediaItemInput(Model):
    """One additional medium of a character."""

    role: MediaRole = Field(description="What it is for: portrait (another icon), background, expression, other.")
    name: str = Field(
        default="",
        description="Its name (an expression label, a background's name ...); default: the file stem, else the role.",
    )
    media: str | AssetRef = Field(description=MEDIA_REF_DESCRIPTION)


def additional_media_field():
    return Field(
        default=None,
        max_length=limits.MEDIA_REFS_MAX,
        description="Additional media with roles (portrait, background, expression, other), kept as the "
        "card's named assets; a medium of the same role and name is replaced.",
    )


class Collected:
    """Attachments and warnings the media refs of one input add to its preview."""

    def __init__(self) -> None:
        self.attachments: dict[str, dict] = {}
        self.warnings: list[str] = []

    def take(self, media: Media) -> Media:
        self.attachments |= media.attachments
        self.warnings += media.warnings
        return media


def portrait_ref(ref: str | AssetRef | None, collected: Collected, what: str = "portrait") -> AssetRef | None:
    """The stored image a ref stands for (None removes it); a URL or a non-image is refused."""
    if ref is None:
        return None
    media = collected.take(resolve_media(ref, what, accept=IMAGES))
    if media.asset is None:
        raise refuse(
            f"{what}: the image must be stored in the studio; a URL is not downloaded",
            "download the image and give it as @path",
        )
    if media.mime and not media.mime.startswith("image/"):
        raise refuse(
            f"{what}: the stored asset is {media.mime}, not an image",
            "give an image: @path to a PNG, JPEG, WebP, GIF or AVIF file, or a stored image asset",
        )
    return media.asset


IMAGE_DESCRIPTION = "An image. " + MEDIA_REF_DESCRIPTION


def add_links(links: list[dict], items: list[MediaItemInput], collected: Collected) -> list[dict]:
    """`links` (a piece's asset links as JSON) with `items` added, same type and name replaced."""
    links = list(links)
    for index, item in enumerate(items):
        media = collected.take(
            resolve_media(
                item.media,
                f"additional_media[{index}] ({item.role})",
                accept=IMAGES if item.role in ("portrait", "background") else VISUALS,
            )
        )
        name = item.name or (media.name.rsplit(".", 1)[0] if media.name else "") or item.role
        role = ROLE_TYPE[item.role]
        link = {
            "role": role,
            "name": name,
            "ext": media.ext or "unknown",
            "asset": media.asset.model_dump(mode="json") if media.asset else None,
            "uri": media.url,
        }
        links = [old for old in links if not (old.get("role") == role and old.get("name") == name)]
        links.append(link)
    return links
