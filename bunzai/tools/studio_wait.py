"""studio_wait: block until one declarative condition holds, or a timeout (`bunzai wait`)."""

import time

from pydantic import Field, model_validator

from bunzai.limits import MCP_WAIT_SLICE_SECONDS, WAIT_DEFAULT_SECONDS, WAIT_MAX_SECONDS
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    changedSince: int | None = Field(None, ge=0, description="Wait for a landed change with a seq above this one.")
    pieceExists: str | None = Field(None, description="Wait until this piece (kind/id) exists.")
    revisionChanged: str | None = Field(
        None, description="kind/id@revision: wait until the piece is no longer that revision."
    )
    timeout: float | None = Field(
        None,
        gt=0,
        le=WAIT_MAX_SECONDS,
        description="Seconds to wait (15 by default, 55 at most); a timeout is an answer (met false), not an error.",
    )

    @model_validator(mode="after")
    def _one_condition(self):
        given = [name for name in ("changedSince", "pieceExists", "revisionChanged") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of changedSince, pieceExists, revisionChanged")
        return self


def run(ctx, args: Args):
    from bunzai.changes.watch import studio_wait  # lazy: tool discovery imports every tool before the first tools/list

    total = WAIT_DEFAULT_SECONDS if args.timeout is None else args.timeout
    started = time.monotonic()
    while True:
        left = total - (time.monotonic() - started)
        result = studio_wait(
            ctx.studio,
            changed_since=args.changedSince,
            piece_exists=args.pieceExists,
            revision_changed=args.revisionChanged,
            timeout=max(0.0, min(left, MCP_WAIT_SLICE_SECONDS)),
        )
        if result["met"] or left <= MCP_WAIT_SLICE_SECONDS or ctx.cancelled():
            break
    result.update(timeout_seconds=total, waited_seconds=round(time.monotonic() - started, 3))
    if "change" in result:  # carries the writer's self-declared session label
        result["change"] = untrusted(result["change"])
    return result


TOOL = Tool(
    name="studio_wait",
    title="Wait for a change",
    input_model=Args,
    effect="read",
    run=run,
    description="Block until one condition holds: a change lands after seq changedSince, a piece exists, "
    "or a piece's revision changes; or until the timeout (15 s default, 55 s most). Nothing is "
    "evaluated. Use instead of sleeping and polling.",
)
