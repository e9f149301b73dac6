"""preset.settings.update: name, description, family, target API and model, helper prompts, media, templates."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import given, merge_patch, nothing_given, piece_json, propose
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Json, Model
from bunzai.model.preset import Family, MediaInlining


class TemplatesPatch(Model):
    """Template strings and options to change; null removes one."""

    sequences: dict[str, str | None] | None = Field(
        default=None,
        description="Named template strings to set: input_sequence, story_string, content, prefix ...",
    )
    options: dict[str, Json] | None = Field(
        default=None,
        description="Non-text template settings to set: wrap, macro, names_behavior ...",
    )


class SettingsInput(Model):
    """Only the fields given change; maps merge (null removes a key)."""

    name: str | None = Field(
        default=None, min_length=1, pattern=r"\S", description="Display name (not blank); omit to keep."
    )
    description: str | None = Field(default=None, description="What the preset is for (not sent); omit to keep.")
    family: Family | None = Field(
        default=None,
        description="chat_completion, text_completion, instruct, context, sysprompt or reasoning.",
    )
    source: str | None = Field(default=None, description="API or backend it targets (openai, claude, textgen ...).")
    model: str | None = Field(default=None, description="Model name it was tuned for.")
    utility_prompts: dict[str, str | None] | None = Field(
        default=None,
        description="Helper prompts to set: impersonation, new_chat, continue_nudge, wi_format ...",
    )
    media: MediaInlining | None = Field(
        default=None, description="Media sent inline to the model (fields given change)."
    )
    templates: TemplatesPatch | None = Field(default=None, description="Instruct/context/sysprompt/reasoning strings.")


def preview_settings(entity, data: SettingsInput) -> Preview:
    patch = given(data)
    doc = piece_json(entity)
    if "name" in patch:
        doc["name"] = patch.pop("name")
    doc["body"] = merge_patch(doc["body"], patch)
    warnings = nothing_given(given(data), "settings")
    if data.family is not None and data.family != entity.body.family:
        warnings.append(
            f"the family changes from {entity.body.family} to {data.family}: exports now write the new family's format"
        )
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="preset.settings.update",
    kind="preset",
    area="settings",
    action="update",
    summary="Change a preset's name, description, family, target API or model, helper prompts, media and templates.",
    aliases=(
        "rename preset",
        "preset name",
        "instruct template",
        "story string",
        "context template",
        "system prompt template",
        "utility prompts",
        "impersonation prompt",
    ),
    input_model=SettingsInput,
    preview=preview_settings,
)
