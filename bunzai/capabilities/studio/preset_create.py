"""studio.preset.create: a new preset with samplers and prompt blocks (and their order)."""

from __future__ import annotations

from bunzai.capabilities.common.create_inputs import create_input_model
from bunzai.capabilities.common.create_preview import create_preview
from bunzai.capabilities.common.preset_blocks import fill_identifiers, marker_warnings
from bunzai.capabilities.contract import Capability
from bunzai.model.preset import PromptBlock

PresetCreateInput = create_input_model(
    "preset",
    "PresetCreateInput",
    "A new preset: `name`, an optional `id`, its family, samplers and prompt blocks. A block without an "
    "identifier gets one from its name; when `prompts` is given without `orders`, a chat-completion preset "
    "gets one global order listing the blocks as given.",
)


def complete_preset(body: dict) -> list[str]:
    if "prompts" not in body:
        return []
    blocks = [PromptBlock.model_validate(block).model_dump(mode="json") for block in body["prompts"]]
    warnings = fill_identifiers(blocks, {block["identifier"] for block in blocks if block["identifier"]})
    body["prompts"] = blocks
    if "orders" not in body and body.get("family", "chat_completion") == "chat_completion" and blocks:
        body["orders"] = [
            {
                "target": "global",
                "items": [{"identifier": block["identifier"], "enabled": block["enabled"]} for block in blocks],
            }
        ]
    return warnings + marker_warnings(blocks)


CAPABILITY = Capability(
    id="studio.preset.create",
    kind="preset",
    domain="studio",
    mode="create",
    area="preset",
    action="create",
    summary="Create a preset: family, samplers (temperature, top_p ...), prompt blocks and their order, templates.",
    aliases=("new preset", "create preset", "new generation settings", "new prompt preset"),
    input_model=PresetCreateInput,
    preview=create_preview("preset", complete_preset),
)
