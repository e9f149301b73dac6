"""studio_transfer: what crossing a piece into another format would cost (`bunzai transfer`)."""

from bunzai.tools.contract import Tool
from bunzai.tools.crossing import CrossingArgs, quoted


def run(ctx, args: CrossingArgs):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.convert import transfer_report  # it hands the studio's engine checkouts to the adapters

    report = transfer_report(ctx.studio, args.ref, args.to, engine=args.engine, source=args.from_engine)
    return quoted(report)


TOOL = Tool(
    name="studio_transfer",
    title="Preview a crossing",
    input_model=CrossingArgs,
    effect="read",
    run=run,
    description="Preview converting a piece into another platform's format: file name, size and every field "
    "that would not survive. Writes nothing.",
)
