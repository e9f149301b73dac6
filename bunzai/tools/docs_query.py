"""docs_query: bunzai's own documentation, browsed, searched and read in bounded pages."""

from typing import Literal

from pydantic import Field

from bunzai.limits import DOCS_BROWSE_MAX, DOCS_READ_MAX, DOCS_READ_MIN, DOCS_SEARCH_MAX

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool


class Args(ToolArgs):
    action: Literal["browse", "outline", "search", "read"] = Field(description="browse, outline, search or read.")
    page: str | None = Field(
        None, description="A page id (outline, read), e.g. commands/export, or a collection (browse)."
    )
    query: str | None = Field(None, description="search: a few words.")
    section: str | None = Field(None, description="outline/read: a section's slug.")
    offset: int = Field(0, ge=0, description="read: first character; browse: first row (a page's next_offset).")
    limit: int | None = Field(
        None,
        ge=1,
        le=DOCS_READ_MAX,
        description=f"Characters (read: {DOCS_READ_MIN:,} to {DOCS_READ_MAX:,}) or rows "
        f"(browse: at most {DOCS_BROWSE_MAX}, search: at most {DOCS_SEARCH_MAX}).",
    )


def run(ctx, args: Args):
    from bunzai.docs.query import query  # lazy: tool discovery imports every tool before the first tools/list

    return query(
        args.action, page=args.page, text=args.query, section=args.section, offset=args.offset, limit=args.limit
    )


TOOL = Tool(
    name="docs_query",
    title="Read bunzai's docs",
    input_model=Args,
    effect="read",
    run=run,
    description="Browse, search, outline or read bunzai's documentation (commands, formats, limits, errors) "
    "in bounded pages.",
)
