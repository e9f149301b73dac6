"""result_query: stats, pages and literal searches of a result kept as a handle."""

from typing import Literal

from pydantic import Field

from bunzai.limits import MCP_RESULT_READ_MAX_CHARS

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool


class Args(ToolArgs):
    handle: str = Field(description="The result-N handle a long result came back as.")
    action: Literal["stats", "read", "search"] = Field(
        "read", description="stats (size), read (a page) or search (literal text)."
    )
    offset: int = Field(0, ge=0, description="read: first character of the page; search: where to start.")
    limit: int | None = Field(
        None,
        ge=1,
        le=MCP_RESULT_READ_MAX_CHARS,
        description=f"read: characters in the page (at most {MCP_RESULT_READ_MAX_CHARS:,}).",
    )
    query: str | None = Field(None, description="search: the literal text to find (case-sensitive).")


def run(ctx, args: Args):
    if args.action == "stats":
        return ctx.handles.stats(args.handle)
    if args.action == "read":
        return ctx.handles.read(args.handle, args.offset, args.limit)
    return ctx.handles.search(args.handle, args.query or "", args.offset)


TOOL = Tool(
    name="result_query",
    title="Read a result handle",
    input_model=Args,
    effect="read",
    run=run,
    description="Read a result too long for one reply by its handle: its size (stats), a page of up to "
    "12,000 characters from an offset (read), or the offsets of a literal text (search, 50 rows).",
)
