"""studio_search: BM25 search over names, tags and text fields (`bunzai search`)."""

from pydantic import Field

from bunzai.limits import SEARCH_MAX_LIMIT

from bunzai.query.reading import search_shelf
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    query: str = Field(
        description='Words to look for (all must appear); "a phrase" in quotes; pref* for any word starting so.'
    )
    kind: str | None = Field(None, description="Only this kind.")
    limit: int | None = Field(
        None, ge=1, le=SEARCH_MAX_LIMIT, description=f"Most hits to return (at most {SEARCH_MAX_LIMIT})."
    )


def run(ctx, args: Args):
    doc = search_shelf(ctx.studio, args.query, args.kind, args.limit)
    return {"query": args.query, "count": doc["count"], "items": untrusted(doc["items"])}


TOOL = Tool(
    name="studio_search",
    title="Search the studio",
    input_model=Args,
    effect="read",
    run=run,
    description=(
        "Search the pieces' names, tags and text fields; each hit names the piece, the field (pointer) and a snippet."
    ),
)
