"""change_apply: write a draft through the one apply door (revision checked)."""

from pydantic import Field

from bunzai.tools import drafts
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool


class Args(ToolArgs):
    draft: str = Field(description="The draft's name: draft-N from a capability tool, or a saved draft's name.")


def run(ctx, args: Args):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.changes.apply import apply_batch
    from bunzai.changes.draft import parse_draft
    from bunzai.changes.receipts import refusal

    doc, saved = drafts.find(ctx, args.draft)
    receipts = apply_batch(ctx.studio, [parse_draft(item) for item in (doc if isinstance(doc, list) else [doc])])
    refused = refusal(receipts, f"draft {args.draft}", "read the piece again and make the draft anew")
    if refused is not None:
        raise refused
    if saved:
        from bunzai.changes.saved import discard_saved  # lazy: as above

        discard_saved(ctx.studio, args.draft)
    else:
        ctx.drafts.pop(args.draft, None)
    return receipts[0] if len(receipts) == 1 else {"receipts": receipts}


TOOL = Tool(
    name="change_apply",
    title="Apply a draft",
    input_model=Args,
    effect="apply",
    run=run,
    description="Apply a draft: check that the stored piece is still the draft's baseline, write it, and "
    "return the receipt (a changed piece is refused as stale, nothing written).",
)
