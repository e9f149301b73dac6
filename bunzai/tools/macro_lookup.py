"""macro_lookup: what a macro does in an engine and what it is on another (`bunzai macro-lookup`)."""

from pydantic import Field

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool


class Args(ToolArgs):
    name: str = Field(description="A macro name, e.g. random or {{setvar}}.")
    engine: str | None = Field(None, description="Only this engine's forms (sillytavern, risuai ...).")
    to: str | None = Field(None, description="Also say what each form becomes on this engine.")


def run(ctx, args: Args):
    from bunzai.macros.lookup import macro_lookup  # lazy: tool discovery imports every tool before the first tools/list

    return macro_lookup(args.name, args.engine, args.to)


TOOL = Tool(
    name="macro_lookup",
    title="Look up a macro",
    input_model=Args,
    effect="read",
    run=run,
    description="What a macro does on an engine (operation, forms, notes) and what it becomes on another platform.",
)
