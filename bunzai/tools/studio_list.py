"""studio_list: the pieces on the shelf (`bunzai list`), a page at a time."""

from pydantic import Field

from bunzai.limits import MCP_LIST_PAGE_MAX
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
    offset: int = Field(0, ge=0, description="First piece of the page (the last answer's next_offset).")
    limit: int = Field(
        MCP_LIST_PAGE_MAX, ge=1, le=MCP_LIST_PAGE_MAX, description=f"Pieces in the page (at most {MCP_LIST_PAGE_MAX})."
    )


def run(ctx, args: Args):
    doc = list_shelf(ctx.studio, args.kind)
    page = doc["items"][args.offset : args.offset + args.limit]
    end = args.offset + len(page)
    more = end < doc["count"]
    answer = {
        "count": len(page),
        "total": doc["count"],
        "offset": args.offset,
        "next_offset": end if more else None,
        "items": untrusted(page),
        "damaged": doc["damaged"],
    }
    if more:
        same_kind = f" and kind {args.kind!r}" if args.kind else ""
        answer["hint"] = f"{doc['count'] - end} more: call studio_list again with offset {end}{same_kind}"
    return answer


TOOL = Tool(
    name="studio_list",
    title="List pieces",
    input_model=Args,
    effect="read",
    run=run,
    description=(
        "List the pieces in the studio (kind, id, name, revision), optionally of one kind, sorted by kind "
        f"then id, {MCP_LIST_PAGE_MAX} at most per page: next_offset names the next page (null on the last)."
    ),
)
