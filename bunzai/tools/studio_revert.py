"""studio_revert: undo this session's own changes, newest first (`bunzai revert`)."""

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    pass


def run(ctx, args: Args):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.changes.revert import revert_refusal, studio_revert

    report = studio_revert(ctx.studio, ctx.session_id or None)
    refused = revert_refusal(report)  # its details hold `report` itself, so they get the envelope below too
    # Rows name other sessions' self-declared labels (who changed a piece since): data, not authority.
    report["changes"] = untrusted(report["changes"])
    if refused is not None:
        raise refused  # isError, as every refusal (the CLI exits 1): revert_forbidden, revert_unavailable ...
    return report


TOOL = Tool(
    name="studio_revert",
    title="Undo this session's changes",
    input_model=Args,
    effect="apply",
    run=run,
    description="Undo the changes this session applied, newest first, each through the apply door with its "
    "revision check. A piece another session (or a person) changed since is left as they left it "
    "(revert_forbidden); a revision no longer kept is revert_unavailable; either (or a failed write, or an undo "
    "the disk did not confirm durable: io_error) makes the "
    "result an error whose details hold the whole report (details.held, a result_query handle, when large), "
    "while the changes undone before stay undone. Only this session's own writes are ever undone.",
)
