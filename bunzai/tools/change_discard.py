"""change_discard: drop a draft of this session, or a saved one; no piece is touched."""

from pydantic import Field

from bunzai.changes.receipts import receipt
from bunzai.tools import drafts
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool


class Args(ToolArgs):
    draft: str = Field(description="The draft's name: draft-N, or a saved draft's name.")


def run(ctx, args: Args):
    doc, saved = drafts.find(ctx, args.draft)
    if saved:
        # lazy: tool discovery imports every tool before the first tools/list
        from bunzai.changes.saved import discard_saved

        return discard_saved(ctx.studio, args.draft)
    ctx.drafts.pop(args.draft)
    first = doc[0] if isinstance(doc, list) else doc
    return receipt(
        "discarded", op=first.get("mode", "update"), target=first.get("target"), reason="discarded", draft=args.draft
    )


TOOL = Tool(
    name="change_discard",
    title="Discard a draft",
    input_model=Args,
    effect="draft",
    run=run,
    description="Discard a draft (of this session, or saved in the studio) without writing any piece.",
)
