"""studio_list: the pieces on the shelf (`bunzai list`)."""

from pydantic import Field

from bunzai.query.reading import list_shelf
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    kind: str | None = Field(
        None,
        description=(
            "Only this kind: character, lorebook, persona, preset, regex, quickreply, pack, htmldoc or promptbook."
        ),
    )


def run(ctx, args: Args):
    doc = list_shelf(ctx.studio, args.kind)
    return {"count": doc["count"], "items": untrusted(doc["items"]), "damaged": doc["damaged"]}


TOOL = Tool(
    name="studio_list",
    title="List pieces",
    input_model=Args,
    effect="read",
    run=run,
    description="List the pieces in the studio (kind, id, name, revision), optionally of one kind.",
)
