"""persona.presentation.update: how a persona is shown to people (portrait, palette, links ...)."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.character_media import IMAGE_DESCRIPTION, Collected, portrait_ref
from bunzai.capabilities.common.patching import given, merge_patch, nothing_given, piece_json, propose
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import AssetRef, Model, PresentationLink


class PresentationPatch(Model):
    """Only the fields given change. Palette colours merge (null removes one); lists replace."""

    palette: dict[str, str | None] | None = Field(
        default=None, description="Named colours to set, e.g. {'name': '#c0392b'}; null removes a colour."
    )
    background: str | AssetRef | None = Field(
        default=None, description="Background image. " + IMAGE_DESCRIPTION + " null removes it."
    )
    field_order: list[str] | None = Field(default=None, description="Body field names in the order a page shows them.")
    spoilers: list[str] | None = Field(default=None, description="Body field names hidden behind a spoiler toggle.")
    links: list[PresentationLink] | None = Field(
        default=None, description="Links shown with the persona (replaces the list)."
    )


class PresentationInput(Model):
    """Only the fields given change."""

    portrait: str | AssetRef | None = Field(
        default=None, description="The persona's avatar. " + IMAGE_DESCRIPTION + " null removes it."
    )
    presentation: PresentationPatch | None = Field(default=None, description="Display settings to change.")


def preview_presentation(entity, data: PresentationInput) -> Preview:
    patch = given(data)
    collected = Collected()
    if "portrait" in patch:
        ref = portrait_ref(data.portrait, collected)
        patch["portrait"] = ref.model_dump(mode="json") if ref else None
    if isinstance(patch.get("presentation"), dict) and "background" in patch["presentation"]:
        ref = portrait_ref(data.presentation.background, collected, "background")
        patch["presentation"]["background"] = ref.model_dump(mode="json") if ref else None
    doc = piece_json(entity)
    doc["body"] = merge_patch(doc["body"], patch)
    return Preview(
        entity=propose(doc),
        warnings=collected.warnings + nothing_given(patch, "presentation"),
        attachments=collected.attachments,
    )


CAPABILITY = Capability(
    id="persona.presentation.update",
    kind="persona",
    area="presentation",
    action="update",
    summary="Change how a persona is shown: avatar, palette, background, field order, spoilers, links.",
    aliases=("persona avatar", "persona portrait", "persona colours", "persona colors", "persona palette"),
    input_model=PresentationInput,
    preview=preview_presentation,
)
