"""studio_graveyard: the buried pieces, newest first (`bunzai graveyard list`)."""

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool


class Args(ToolArgs):
    pass


def run(ctx, args: Args):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.store.graveyard import list_graveyard

    entries = list_graveyard(ctx.studio)
    return {"count": len(entries), "items": entries}


TOOL = Tool(
    name="studio_graveyard",
    title="List buried pieces",
    input_model=Args,
    effect="read",
    run=run,
    description="List the buried pieces, newest first. No tool restores one: a person does, with "
    "`bunzai graveyard restore ENTRY`.",
)
