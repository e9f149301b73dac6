"""preset.blocks.update: one prompt block's text, role, placement or flags (only those given change)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.capabilities.common.patching import given, merge_patch, nothing_given, piece_json, propose
from bunzai.capabilities.common.positions import index_of
from bunzai.capabilities.common.preset_blocks import marker_warnings, rename_block
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import GenerationType, Model, Role


class BlocksUpdateInput(Model):
    """The block to change, by identifier, and the fields to change (use preset.blocks.enable to turn it on/off)."""

    identifier: str = Field(description="Identifier of the block to change (e.g. main, jailbreak, a uuid).")
    new_identifier: str | None = Field(
        default=None,
        min_length=1,
        description="Rename the block; orders and groups follow.",
    )
    # a blank name stays allowed: SillyTavern saves a new prompt named "" and RisuAI prompt items need no name
    name: str | None = Field(default=None, description="Name shown to people.")
    role: Role | None = Field(default=None, description="Role of the message: system, user, assistant.")
    content: str | None = Field(default=None, description="The block's text (macros kept verbatim).")
    marker: bool | None = Field(default=None, description="A placeholder the frontend fills.")
    system_prompt: bool | None = Field(default=None, description="A built-in block of the frontend.")
    position: Literal["relative", "absolute"] | None = Field(
        default=None,
        description="relative: in order; absolute: injected into the chat at `depth`.",
    )
    depth: int | None = Field(default=None, ge=0, description="Messages from the end, for position absolute.")
    injection_order: int | None = Field(default=None, description="Order among blocks injected at the same depth.")
    triggers: list[GenerationType] | None = Field(
        default=None,
        description="Generation types the block applies to; empty = all.",
    )
    forbid_overrides: bool | None = Field(default=None, description="A character card may not replace this block.")


def preview_blocks_update(entity, data: BlocksUpdateInput) -> Preview:
    doc = piece_json(entity)
    body = doc["body"]
    index = index_of(body["prompts"], "identifier", data.identifier, "prompt block")
    patch = given(data, exclude={"identifier", "new_identifier"})
    body["prompts"][index] = merge_patch(body["prompts"][index], patch)
    warnings = nothing_given(given(data, exclude={"identifier"}), "block")
    if data.new_identifier is not None and data.new_identifier != data.identifier:
        rename_block(body, data.identifier, data.new_identifier)
        warnings += _renamed_built_in(entity, data.identifier, data.new_identifier)
    if "content" in patch:
        warnings += marker_warnings([body["prompts"][index]])
    block = body["prompts"][index]
    if {"depth", "injection_order"} & patch.keys() and block["position"] != "absolute":
        warnings.append("depth and injection_order only apply at position absolute")
    return Preview(entity=propose(doc), warnings=warnings)


def _renamed_built_in(entity, old: str, new: str) -> list[str]:
    """A marker or built-in block is known to its frontend by its identifier (SillyTavern fills
    `chatHistory` by that name and puts a missing default block back), so a rename unhooks it."""
    block = next(block for block in entity.body.prompts if block.identifier == old)
    if not (block.marker or block.system_prompt):
        return []
    return [
        f"block {old!r} is built into the frontend, which finds it by that identifier: under {new!r} "
        f"it is no longer filled or placed as {old!r} was, and the frontend may add a default {old!r} back"
    ]


CAPABILITY = Capability(
    id="preset.blocks.update",
    kind="preset",
    area="blocks",
    action="update",
    summary="Edit one prompt block of a preset: its text, role, name, position, depth or flags.",
    aliases=(
        "edit prompt",
        "edit main prompt",
        "change prompt text",
        "edit block",
        "jailbreak prompt",
        "edit instruction",
    ),
    input_model=BlocksUpdateInput,
    preview=preview_blocks_update,
)
