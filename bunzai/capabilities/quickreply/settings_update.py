"""quickreply.settings.update: the set's name, description and button behaviour."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import name_and_body_preview
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class ButtonSettings(Model):
    """Button behaviour to change; only the fields given change."""

    disable_send: bool | None = Field(
        default=None, description="Put the message in the input box instead of sending it."
    )
    place_before_input: bool | None = Field(default=None, description="Put the message before the input's text.")
    inject_input: bool | None = Field(default=None, description="Inject the input's text into the message.")
    color: str | None = Field(default=None, description="Button colour (CSS); '' = theme default.")
    only_border_color: bool | None = Field(default=None, description="Colour only the border.")


class SettingsInput(Model):
    """Only the fields given change."""

    name: str | None = Field(
        default=None, min_length=1, pattern=r"\S", description="Display name of the set (not blank); omit to keep."
    )
    description: str | None = Field(default=None, description="What the set is for; omit to keep.")
    settings: ButtonSettings | None = Field(default=None, description="How the set's buttons behave.")


def preview_settings(entity, data: SettingsInput) -> Preview:
    return name_and_body_preview(entity, data, "settings")


CAPABILITY = Capability(
    id="quickreply.settings.update",
    kind="quickreply",
    area="settings",
    action="update",
    summary="Rename a quick-reply set or change its description and button behaviour (send, inject, colour).",
    aliases=("rename quick reply set", "quick reply settings", "button colour", "button color", "disable send"),
    input_model=SettingsInput,
    preview=preview_settings,
)
