"""character.media.update: the portrait, the expression pack, how it is shown, the default face."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.capabilities.character.target import VariantTarget, edit_character
from bunzai.capabilities.common.partial import given, merge_partial
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import AssetRef, SafeId


class MediaInput(VariantTarget):
    portrait: AssetRef | None = Field(default=None, description="The main portrait (a stored asset); null removes it. Omit to keep.")
    pack: SafeId | None = Field(default=None, description="Id of the pack piece holding the expressions; null unbinds it. Omit to keep.")
    visual: Literal["none", "sprites", "live2d", "generated"] | None = Field(
        default=None, description="How the character is shown: none, sprites, live2d, generated. Omit to keep.")
    face: str | None = Field(default=None, description="Expression label shown when nothing else applies; '' = the pack's default.")


def preview(piece, inp: MediaInput) -> Preview:
    media_patch = given(inp, skip=("variant", "portrait"))
    warnings: list[str] = []

    def edit(name, body):
        update = {}
        if "portrait" in inp.model_fields_set:
            update["portrait"] = inp.portrait
        if media_patch:
            update["media"] = merge_partial(body.media, media_patch)
        body = body.model_copy(update=update)
        if body.media.visual in ("sprites", "live2d") and body.media.pack is None:
            warnings.append(f"visual is {body.media.visual} but no pack is bound; the character shows its portrait only")
        if body.media.face and body.media.pack is None:
            warnings.append("a default face is named but no pack is bound")
        return name, body

    return Preview(edit_character(piece, inp.variant, edit), warnings=warnings)


CAPABILITY = Capability(
    id="character.media.update", kind="character", area="media", action="update",
    summary="Change a character's portrait, expression pack, visual kind (sprites, live2d ...) or default face.",
    aliases=("portrait", "avatar", "sprites", "expression pack", "live2d", "default expression", "face label"),
    input_model=MediaInput, preview=preview,
)
