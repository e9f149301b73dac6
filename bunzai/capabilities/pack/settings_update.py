"""pack.settings.update: the pack's name, description and default face."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import given, merge_patch, nothing_given, piece_json, propose, refuse
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class SettingsInput(Model):
    """Only the fields given change."""

    name: str | None = Field(
        default=None, min_length=1, pattern=r"\S", description="Display name of the pack (not blank); omit to keep."
    )
    description: str | None = Field(default=None, description="What the pack shows; omit to keep.")
    default_face: str | None = Field(
        default=None,
        description="Label shown when no expression applies (an item's label); '' or null = none chosen.",
    )


def preview_settings(entity, data: SettingsInput) -> Preview:
    patch = given(data)
    doc = piece_json(entity)
    if "name" in patch:
        doc["name"] = patch.pop("name")
    labels = sorted({item.label for item in entity.body.items})
    if data.default_face and data.default_face not in labels:
        raise refuse(f"no item has the label {data.default_face!r}", "labels: " + (", ".join(labels) or "(none)"))
    doc["body"] = merge_patch(doc["body"], patch)
    return Preview(entity=propose(doc), warnings=nothing_given(given(data), "settings"))


CAPABILITY = Capability(
    id="pack.settings.update",
    kind="pack",
    area="settings",
    action="update",
    summary="Rename an expression pack, change its description, or choose its default face.",
    aliases=("default face", "default expression", "rename pack", "sprite pack name", "neutral face"),
    input_model=SettingsInput,
    preview=preview_settings,
)
