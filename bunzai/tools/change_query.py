"""change_query: the drafts of this session and those saved in the studio; one draft with its review."""

from pydantic import Field

from bunzai.tools import drafts
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    draft: str | None = Field(None, description="A draft's name (draft-N, or a saved draft's name); omit to list them.")


def run(ctx, args: Args):
    if args.draft is None:
        # lazy: tool discovery imports every tool before the first tools/list
        from bunzai.changes.saved import list_saved

        rows = [drafts.summary(name, doc) for name, doc in ctx.drafts.items()]
        saved = list_saved(ctx.studio)  # the items are `bunzai draft list`'s; this session's drafts ride beside them
        return {"count": len(saved), "items": untrusted(saved), "session": rows}
    # lazy: as above
    from bunzai.changes.check import validate_draft
    from bunzai.changes.review import review_card

    doc, _ = drafts.find(ctx, args.draft)
    items = doc if isinstance(doc, list) else [doc]
    return drafts.summary(args.draft, doc) | {
        "review": untrusted([review_card(item) for item in items]),
        "validation": untrusted([validate_draft(ctx.studio, item) for item in items]),
    }


TOOL = Tool(
    name="change_query",
    title="Look at drafts",
    input_model=Args,
    effect="read",
    run=run,
    description="List the drafts this session made and those saved in the studio, or show one draft with "
    "its review (before/after rows) and whether it would apply now.",
)
