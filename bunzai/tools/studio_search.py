"""studio_search: BM25 search over names, tags and text fields (`bunzai search`)."""

from typing import Optional

from pydantic import Field

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    query: str = Field(
        description='Words to look for (all must appear); "a phrase" in quotes; pref* for any word starting so.'
    )
    kind: Optional[str] = Field(None, description="Only this kind.")
    limit: Optional[int] = Field(None, ge=1, description="Most hits to return.")


def run(ctx, args: Args):
    from bunzai.query.reading import search_shelf

    doc = search_shelf(ctx.studio, args.query, args.kind, args.limit)
    return {"query": args.query, "count": doc["count"], "hits": untrusted(doc["hits"])}


TOOL = Tool(
    name="studio_search",
    title="Search the studio",
    input_model=Args,
    effect="read",
    run=run,
    description="Search the pieces' names, tags and text fields; each hit names the piece, the field (pointer) and a snippet.",
)
