"""studio_list: the pieces on the shelf (`bunzai list`)."""

from typing import Optional

from pydantic import Field

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    kind: Optional[str] = Field(
        None,
        description="Only this kind: character, lorebook, persona, preset, regex, quickreply, pack, htmldoc or promptbook.",
    )


def run(ctx, args: Args):
    from bunzai.query.reading import list_shelf

    doc = list_shelf(ctx.studio, args.kind)
    return {"count": doc["count"], "pieces": untrusted(doc["pieces"]), "damaged": doc["damaged"]}


TOOL = Tool(
    name="studio_list",
    title="List pieces",
    input_model=Args,
    effect="read",
    run=run,
    description="List the pieces in the studio (kind, id, name, revision), optionally of one kind.",
)
