"""folder_search: files in the folders granted with `bunzai folder grant`, by name."""

from typing import Optional

from pydantic import Field

from bunzai.limits import SEARCH_MAX_LIMIT
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    query: str = Field(description="Words every hit's path must hold, e.g. seraphina png.")
    limit: Optional[int] = Field(None, ge=1, le=SEARCH_MAX_LIMIT, description="Most hits.")


def run(ctx, args: Args):
    from bunzai.folders import search
    from bunzai.limits import SEARCH_DEFAULT_LIMIT

    hits = search(ctx.studio, args.query, args.limit or SEARCH_DEFAULT_LIMIT)
    return {"query": args.query, "count": len(hits), "hits": untrusted(hits)}


TOOL = Tool(
    name="folder_search",
    title="Search granted folders",
    input_model=Args,
    effect="read",
    run=run,
    open_world=True,
    description="Find files by name in the folders the person granted (`bunzai folder grant`); nothing "
    "outside them is searched.",
)
