"""preset_copy_blocks: copy prompt blocks from one preset into another, as a draft."""

from typing import Any

from pydantic import Field

from bunzai.tools.args import ToolArgs
from bunzai.tools.capability_tools import CapabilityArgs, run_capability_tool
from bunzai.tools.contract import Tool


class Args(ToolArgs):
    ref: str = Field(description="kind/id of the preset to copy into.")
    input: dict[str, Any] = Field(
        description="The input of capability preset.blocks.copy (its source preset and blocks; "
        "capability_find describe=preset.blocks.copy shows the schema)."
    )


def run(ctx, args: Args):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.capabilities.discovery import find_capability

    return run_capability_tool(
        ctx, find_capability("preset.blocks.copy"), CapabilityArgs(ref=args.ref, input=args.input)
    )


TOOL = Tool(
    name="preset_copy_blocks",
    title="Copy preset blocks",
    input_model=Args,
    effect="draft",
    run=run,
    description="Copy prompt blocks from another stored preset into a preset, as a draft of this session "
    "(apply it with change_apply).",
)
