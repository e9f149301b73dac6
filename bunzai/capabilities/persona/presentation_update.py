"""persona.presentation.update: how a persona is shown to people (portrait, palette, links ...)."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import given, merge_patch, nothing_given, piece_json, propose
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import AssetRef, Model, PresentationLink


class PresentationPatch(Model):
    """Only the fields given change. Palette colours merge (null removes one); lists replace."""

    palette: dict[str, str | None] | None = Field(
        default=None, description="Named colours to set, e.g. {'name': '#c0392b'}; null removes a colour."
    )
    background: AssetRef | None = Field(default=None, description="Background image (a stored asset); null removes it.")
    field_order: list[str] | None = Field(default=None, description="Body field names in the order a page shows them.")
    spoilers: list[str] | None = Field(default=None, description="Body field names hidden behind a spoiler toggle.")
    links: list[PresentationLink] | None = Field(default=None, description="Links shown with the persona (replaces the list).")


class PresentationInput(Model):
    """Only the fields given change."""

    portrait: AssetRef | None = Field(
        default=None, description="The persona's avatar, a stored asset {sha256, ext, mime}; null removes it."
    )
    presentation: PresentationPatch | None = Field(default=None, description="Display settings to change.")


def preview_presentation(entity, data: PresentationInput) -> Preview:
    patch = given(data)
    doc = piece_json(entity)
    doc["body"] = merge_patch(doc["body"], patch)
    return Preview(entity=propose(doc), warnings=nothing_given(patch, "presentation"))


CAPABILITY = Capability(
    id="persona.presentation.update", kind="persona", area="presentation", action="update",
    summary="Change how a persona is shown: avatar, palette, background, field order, spoilers, links.",
    aliases=("persona avatar", "persona portrait", "persona colours", "persona colors", "persona palette"),
    input_model=PresentationInput, preview=preview_presentation,
)
