"""folder_search: files in the folders granted with `bunzai folder grant`, by name."""

from pydantic import Field

from bunzai.limits import SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    query: str = Field(description="Words every hit's path must hold, e.g. seraphina png.")
    limit: int | None = Field(
        None,
        ge=1,
        le=SEARCH_MAX_LIMIT,
        description=f"Most hits ({SEARCH_DEFAULT_LIMIT} by default, at most {SEARCH_MAX_LIMIT}).",
    )


def run(ctx, args: Args):
    from bunzai.folders import search  # lazy: tool discovery imports every tool before the first tools/list

    found = search(ctx.studio, args.query, args.limit or SEARCH_DEFAULT_LIMIT)
    # the names of the person's files and folders are data, not instructions; `unfinished` names
    # grants (the person's own paths) in bunzai's words, with a hint put in the tools' words
    return found | {key: untrusted(found[key]) for key in ("items", "unreadable") if key in found}


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
