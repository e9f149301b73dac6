"""regex.settings.update: the regex set's name and description."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import name_and_body_preview
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class SettingsInput(Model):
    """Only the fields given change."""

    name: str | None = Field(
        default=None, min_length=1, pattern=r"\S", description="Display name of the set (not blank); omit to keep."
    )
    description: str | None = Field(default=None, description="What the set is for; omit to keep.")


def preview_settings(entity, data: SettingsInput) -> Preview:
    return name_and_body_preview(entity, data, "settings")


CAPABILITY = Capability(
    id="regex.settings.update",
    kind="regex",
    area="settings",
    action="update",
    summary="Rename a regex set or change its description.",
    aliases=("rename regex set", "regex description", "rename regex"),
    input_model=SettingsInput,
    preview=preview_settings,
)
