"""character.prompts.update: the prose the model reads, prompts, examples and the depth note."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.capabilities.character.target import VariantTarget, edit_character
from bunzai.capabilities.common.partial import merge_partial
from bunzai.capabilities.common.patching import given
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class DepthPromptPatch(Model):
    text: str | None = Field(default=None, description="The note's text. Omit to keep.")
    depth: int | None = Field(default=None, ge=0, description="Messages from the end of the chat. Omit to keep.")
    role: Literal["system", "user", "assistant"] | None = Field(
        default=None, description="Role of the inserted message. Omit to keep."
    )


class PromptsInput(VariantTarget):
    description: str | None = Field(
        default=None, description="The character's description (persona prose). Omit to keep."
    )
    personality: str | None = Field(default=None, description="Personality summary. Omit to keep.")
    scenario: str | None = Field(default=None, description="The situation the chat starts in. Omit to keep.")
    example_messages: str | None = Field(
        default=None, description="Example dialogue, blocks separated by <START>. Omit to keep."
    )
    system_prompt: str | None = Field(
        default=None, description="Replaces the user's system prompt; '' keeps theirs. Omit to keep."
    )
    post_history_instructions: str | None = Field(
        default=None, description="Instructions placed after the chat history. Omit to keep."
    )
    depth_prompt: DepthPromptPatch | None = Field(
        default=None, description="Character's note injected at a depth; only the parts given change."
    )


def preview(piece, inp: PromptsInput) -> Preview:
    patch = given(inp, exclude=("variant", "depth_prompt"))
    warnings: list[str] = []

    def edit(name, body):
        body = merge_partial(body, patch)
        if inp.depth_prompt is not None:
            body = body.model_copy(update={"depth_prompt": merge_partial(body.depth_prompt, given(inp.depth_prompt))})
        if inp.example_messages and "<START>" not in inp.example_messages:
            warnings.append("example_messages has no <START> line; platforms read it as one example block")
        if inp.system_prompt and "{{original}}" not in inp.system_prompt:
            warnings.append(
                "system_prompt replaces the user's own system prompt entirely; "
                "write {{original}} to keep theirs inside it"
            )
        return name, body

    return Preview(edit_character(piece, inp.variant, edit), warnings=warnings)


CAPABILITY = Capability(
    id="character.prompts.update",
    kind="character",
    area="prompts",
    action="update",
    summary=(
        "Change the prose a character sends to the model: description, personality, scenario, examples, "
        "system and post-history prompts, depth note."
    ),
    aliases=(
        "edit description",
        "personality",
        "scenario",
        "example dialogue",
        "system prompt",
        "jailbreak",
        "post history instructions",
        "character note",
        "depth prompt",
        "persona prose",
    ),
    input_model=PromptsInput,
    preview=preview,
)
