"""studio_delete: delete a piece for good (`bunzai delete --yes`)."""

from pydantic import Field

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool


class Args(ToolArgs):
    ref: str = Field(description="kind/id of the piece.")
    revision: str | None = Field(None, description="Delete only if the stored revision is this one (from studio_read).")


def run(ctx, args: Args):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.changes.lifecycle import delete_ref, lifecycle_refusal

    done = delete_ref(ctx.studio, args.ref, args.revision)
    refused = lifecycle_refusal(done, f"deleting {args.ref}")
    if refused is not None:
        raise refused  # isError, as every refusal: not_found for a piece that is not there, stale for another revision
    return done


TOOL = Tool(
    name="studio_delete",
    title="Delete a piece",
    input_model=Args,
    effect="delete",
    run=run,
    description="Delete a piece for good (not to the graveyard; studio_graveyard_bury keeps it restorable). "
    "With revision, only if the piece is still that revision; a refusal is an error (not_found, stale) "
    "whose details hold the receipt. A delete the disk did not confirm durable is an error too "
    "(io_error, disk_full) whose receipt says applied, durable false: the piece is deleted. For a piece "
    "others can name (a lorebook, pack, regex or quick-reply set, a preset, a card) the receipt's referrers "
    "names the pieces that still link to it.",
)
