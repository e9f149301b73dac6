"""promptbook.settings.update: the promptbook's name and description."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import name_and_body_preview
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class SettingsInput(Model):
    """Only the fields given change."""

    name: str | None = Field(
        default=None, min_length=1, pattern=r"\S", description="Display name (not blank); omit to keep."
    )
    description: str | None = Field(default=None, description="What the promptbook does; omit to keep.")


def preview_settings(entity, data: SettingsInput) -> Preview:
    return name_and_body_preview(entity, data, "settings")


CAPABILITY = Capability(
    id="promptbook.settings.update",
    kind="promptbook",
    area="settings",
    action="update",
    summary="Rename a promptbook or change its description.",
    aliases=("rename promptbook", "promptbook description"),
    input_model=SettingsInput,
    preview=preview_settings,
)
