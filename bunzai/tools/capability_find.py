"""capability_find: search, browse or describe the capabilities; the matches become callable tools."""

from pydantic import Field

from bunzai.capabilities.browse import browse
from bunzai.capabilities.search import rank
from bunzai.errors import BunzaiError
from bunzai.limits import MCP_REVEALED_TOOLS_MAX
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool
from bunzai.validate import check_kind


class Args(ToolArgs):
    query: str | None = Field(None, description="A few words, e.g. rename character (search).")
    browse: str | None = Field(
        None, description="A path DOMAIN[/KIND[/AREA]], e.g. content/character ('' for the top)."
    )
    describe: str | None = Field(None, description="An exact capability id, e.g. character.identity.update.")
    kind: str | None = Field(None, description="search: only capabilities of this kind.")


def run(ctx, args: Args):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.capabilities.discovery import find_capability, visible_capabilities

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
        doc = browse(capabilities, args.browse)
        under = [
            cap
            for cap in capabilities
            if f"{cap.domain}/{cap.kind}/{cap.area}/".startswith(args.browse.strip("/") + "/")
        ]
        found = under if len(under) <= MCP_REVEALED_TOOLS_MAX else []
    else:
        if args.kind is not None:
            check_kind(args.kind)
        matches = rank(capabilities, args.query, kind=args.kind)
        doc = {"query": args.query, "kind": args.kind, "count": len(matches), "items": matches}
        found = [by_id[row["id"]] for row in matches]
    tools = ctx.reveal(found) if ctx.reveal is not None else []
    return doc | {"tools": tools, "note": _note(ctx, found, tools)}


def _note(ctx, found: list, tools: list[str]) -> str:
    if tools:
        return "these capability tools are callable now (each find replaces the set)"
    if found and ctx.read_only:  # they were found: a read-only server reveals no tool that writes
        return "no capability tools revealed: the server is read-only, and these capabilities make changes"
    return "no capability tools revealed: narrow the search or browse down to an area"


TOOL = Tool(
    name="capability_find",
    title="Find capabilities",
    input_model=Args,
    effect="read",
    run=run,
    description="Find the typed edits (capabilities) for a task: search with a few words, browse a path, or "
    "describe one id. Up to five matches become callable tools (the tool list changes).",
)
