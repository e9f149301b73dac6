"""preset.blocks.remove: prompt blocks taken out of the preset, its orders and its groups."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose
from bunzai.capabilities.common.preset_blocks import check_known, remove_blocks
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class BlocksRemoveInput(Model):
    """The blocks to remove, by identifier."""

    identifiers: list[str] = Field(min_length=1, description="Identifiers of the blocks to remove.")


def preview_blocks_remove(entity, data: BlocksRemoveInput) -> Preview:
    doc = piece_json(entity)
    body = doc["body"]
    check_known(body, data.identifiers)
    built_in = [
        block["identifier"]
        for block in body["prompts"]
        if block["identifier"] in data.identifiers and (block["system_prompt"] or block["marker"])
    ]
    remove_blocks(body, set(data.identifiers))
    warnings = [f"block {name!r} is built into the frontend, which may add it back" for name in built_in]
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="preset.blocks.remove",
    kind="preset",
    area="blocks",
    action="remove",
    summary="Remove prompt blocks from a preset, with their places in its orders and groups.",
    aliases=("delete prompt", "remove prompt block", "delete block", "remove instruction"),
    input_model=BlocksRemoveInput,
    preview=preview_blocks_remove,
)
