"""capability_find: search, browse or describe the capabilities; the matches become callable tools."""

from typing import Optional

from pydantic import Field

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool


class Args(ToolArgs):
    query: Optional[str] = Field(None, description="A few words, e.g. rename character (search).")
    browse: Optional[str] = Field(
        None, description="A path DOMAIN[/KIND[/AREA]], e.g. content/character ('' for the top)."
    )
    describe: Optional[str] = Field(None, description="An exact capability id, e.g. character.identity.update.")
    kind: Optional[str] = Field(None, description="search: only capabilities of this kind.")


def run(ctx, args: Args):
    from bunzai.capabilities.discovery import find_capability, visible_capabilities
    from bunzai.errors import BunzaiError
    from bunzai.limits import MCP_REVEALED_TOOLS_MAX

    asked = [name for name in ("query", "browse", "describe") if getattr(args, name) is not None]
    if len(asked) != 1:
        raise BunzaiError(
            "invalid_input", "give exactly one of query, browse and describe", 'e.g. {"query": "rename character"}'
        )
    capabilities = visible_capabilities()
    by_id = {cap.id: cap for cap in capabilities}
    if args.describe is not None:
        cap = find_capability(args.describe, include_hidden=False)
        doc, found = cap.describe(schema=True), [cap]
    elif args.browse is not None:
        from bunzai.capabilities.browse import browse

        doc = browse(capabilities, args.browse)
        under = [
            cap
            for cap in capabilities
            if f"{cap.domain}/{cap.kind}/{cap.area}/".startswith(args.browse.strip("/") + "/")
        ]
        found = under if len(under) <= MCP_REVEALED_TOOLS_MAX else []
    else:
        from bunzai.capabilities.search import rank

        if args.kind is not None:
            from bunzai.validate import check_kind

            check_kind(args.kind)
        matches = rank(capabilities, args.query, kind=args.kind)
        doc, found = {"query": args.query, "matches": matches}, [by_id[row["id"]] for row in matches]
    tools = ctx.reveal(found) if ctx.reveal is not None else []
    return doc | {
        "tools": tools,
        "note": "these capability tools are callable now (each find replaces the set)"
        if tools
        else "no capability tools revealed: narrow the search or browse down to an area",
    }


TOOL = Tool(
    name="capability_find",
    title="Find capabilities",
    input_model=Args,
    effect="read",
    run=run,
    description="Find the typed edits (capabilities) for a task: search with a few words, browse a path, or "
    "describe one id. Up to five matches become callable tools (the tool list changes).",
)
