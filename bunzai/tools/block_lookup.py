"""block_lookup: kinds of prompt block, how each is built (`bunzai block-lookup`)."""

from pydantic import Field

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool


class Args(ToolArgs):
    kind: str | None = Field(None, description="A kind of prompt block (e.g. tracker); omit to list them.")


def run(ctx, args: Args):
    from bunzai.macros.blocks import block_lookup  # lazy: tool discovery imports every tool before the first tools/list

    return block_lookup(args.kind)


TOOL = Tool(
    name="block_lookup",
    title="Look up a prompt block",
    input_model=Args,
    effect="read",
    run=run,
    description="Kinds of prompt block: what each is for, how it is built, what goes wrong, and a starting block.",
)
