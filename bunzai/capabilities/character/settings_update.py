"""character.settings.update: chat dials, token bias, chat variables, app extension data."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.partial import merge_mapping, merge_partial
from bunzai.capabilities.common.patching import given
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Json, Model


class SettingsInput(Model):
    talkativeness: float | None = Field(
        default=None, ge=0.0, le=1.0, description="Chance to speak unprompted in a group chat (0..1). Omit to keep."
    )
    favorite: bool | None = Field(default=None, description="Marked as favourite in the library. Omit to keep.")
    variables: dict[str, str | None] | None = Field(
        default=None, description="Chat variables set when a chat starts, merged in; a variable set to null is removed."
    )
    bias: list[tuple[str, float]] | None = Field(
        default=None, description="Replace the token bias: [text, weight] pairs."
    )
    extensions: dict[str, Json] | None = Field(
        default=None,
        description=(
            "Namespaced app data merged in by namespace (e.g. {'depth_prompt': ...}); "
            "a namespace set to null is removed. Stored, never run."
        ),
    )


def preview(piece, inp: SettingsInput) -> Preview:
    settings = piece.body.settings
    new = merge_partial(settings, given(inp, exclude=("variables", "extensions")))
    if inp.variables is not None:
        new = new.model_copy(update={"variables": merge_mapping(settings.variables, inp.variables)})
    update = {"settings": new}
    warnings = []
    if inp.extensions is not None:
        update["extensions"] = merge_mapping(piece.body.extensions, inp.extensions)
        warnings.append("extension data is carried for the apps that own it; bunzai stores it and never runs it")
    return Preview(piece.model_copy(update={"body": piece.body.model_copy(update=update)}), warnings=warnings)


CAPABILITY = Capability(
    id="character.settings.update",
    kind="character",
    area="settings",
    action="update",
    summary="Change a character's chat settings: talkativeness, favourite, chat variables, token bias, extension data.",
    aliases=("talkativeness", "favorite", "favourite", "chat variables", "token bias", "logit bias", "extensions"),
    input_model=SettingsInput,
    preview=preview,
)
