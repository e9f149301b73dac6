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
    # As `bunzai apply NAME`: a saved draft stays saved, as a draft file does (change_discard removes
    # it); the session's copy of the draft applied, by either of its names, is done.
    done = [
        name for name, held in ctx.drafts.items() if name == args.draft or (saved and _saved_as(held) == args.draft)
    ]
    for name in done:
        ctx.drafts.pop(name)
    return receipts[0] if len(receipts) == 1 else {"receipts": receipts}


def _saved_as(draft) -> str | None:
    """The name a session draft was also saved under (a capability tool's `save`), if any."""
    saved = draft.get("saved") if isinstance(draft, dict) else None
    return saved.get("name") if isinstance(saved, dict) else None


TOOL = Tool(
    name="change_apply",
    title="Apply a draft",
    input_model=Args,
    effect="apply",
    run=run,
    description="Apply a draft: check that the stored piece is still the draft's baseline, write it, and "
    "return the receipt (a changed piece is refused as stale, nothing written).",
)
