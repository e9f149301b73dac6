"""studio_graveyard_bury: move a piece to the graveyard (`bunzai bury`)."""

from pydantic import Field

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool


class Args(ToolArgs):
    ref: str = Field(description="kind/id of the piece.")
    revision: str | None = Field(None, description="Bury only if the stored revision is this one.")


def run(ctx, args: Args):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.changes.lifecycle import bury_ref, lifecycle_refusal

    done = bury_ref(ctx.studio, args.ref, args.revision)
    refused = lifecycle_refusal(done, f"burying {args.ref}")
    if refused is not None:
        raise refused  # isError, as every refusal: not_found for a piece that is not there, stale for another revision
    return done


TOOL = Tool(
    name="studio_graveyard_bury",
    title="Bury a piece",
    input_model=Args,
    effect="delete",
    run=run,
    destructive=False,
    idempotent=False,
    description="Move a piece to the graveyard: it leaves the shelf and can be restored later. With revision, "
    "only if the piece is still that revision; a refusal is an error (not_found, stale) whose details hold the "
    "receipt. A burial the disk did not confirm durable is an error too (io_error, disk_full) whose receipt says "
    "applied, durable false: the piece is buried. The same codes with no receipt mean the piece was not buried: "
    "a graveyard copy made on the way is removed again where the disk allows (studio_graveyard lists one left). "
    "For a piece others can name (a lorebook, pack, regex or quick-reply set, "
    "a preset, a card) the receipt's referrers names the pieces that still "
    "link to it.",
)
