"""character.media.update: the portrait, additional media, the expression pack, how it is shown, the default face."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.capabilities.character.target import VariantTarget, edit_character
from bunzai.capabilities.common.character_media import (
    PORTRAIT_DESCRIPTION,
    Collected,
    MediaItemInput,
    add_links,
    additional_media_field,
    portrait_ref,
)
from bunzai.capabilities.common.partial import merge_partial
from bunzai.capabilities.common.patching import given
from bunzai.capabilities.common.patching import refuse
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import AssetLink, AssetRef, SafeId


class MediaInput(VariantTarget):
    portrait: str | AssetRef | None = Field(
        default=None, description=PORTRAIT_DESCRIPTION + " null removes it. Omit to keep."
    )
    additional_media: list[MediaItemInput] | None = additional_media_field()
    pack: SafeId | None = Field(
        default=None, description="Id of the pack piece holding the expressions; null unbinds it. Omit to keep."
    )
    visual: Literal["none", "sprites", "live2d", "generated"] | None = Field(
        default=None, description="How the character is shown: none, sprites, live2d, generated. Omit to keep."
    )
    face: str | None = Field(
        default=None, description="Expression label shown when nothing else applies; '' = the pack's default."
    )


def preview(piece, inp: MediaInput) -> Preview:
    media_patch = given(inp, exclude=("variant", "portrait", "additional_media"))
    warnings: list[str] = []
    collected = Collected()
    portrait = portrait_ref(inp.portrait, collected) if "portrait" in inp.model_fields_set else None

    def edit(name, body):
        update = {}
        if "portrait" in inp.model_fields_set:
            update["portrait"] = portrait
        if media_patch:
            update["media"] = merge_partial(body.media, media_patch)
        body = body.model_copy(update=update)
        if body.media.visual in ("sprites", "live2d") and body.media.pack is None:
            warnings.append(
                f"visual is {body.media.visual} but no pack is bound; the character shows its portrait only"
            )
        if body.media.face and body.media.pack is None:
            warnings.append("a default face is named but no pack is bound")
        return name, body

    edited = edit_character(piece, inp.variant, edit)
    if inp.additional_media:
        if inp.variant is not None:
            raise refuse("additional media belong to the whole character, not a variant", "leave out `variant`")
        links = add_links([link.model_dump(mode="json") for link in edited.assets], inp.additional_media, collected)
        edited = edited.model_copy(update={"assets": [AssetLink.model_validate(link) for link in links]})
    return Preview(edited, warnings=collected.warnings + warnings, attachments=collected.attachments)


CAPABILITY = Capability(
    id="character.media.update",
    kind="character",
    area="media",
    action="update",
    summary="Change a character's portrait (from a file, data: URI or asset), additional media, expression pack, "
    "visual kind (sprites, live2d ...) or default face.",
    aliases=(
        "portrait",
        "avatar",
        "sprites",
        "expression pack",
        "live2d",
        "default expression",
        "face label",
        "set portrait from file",
        "background image",
    ),
    input_model=MediaInput,
    preview=preview,
)
