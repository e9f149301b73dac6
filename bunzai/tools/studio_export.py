"""studio_export: write a piece's crossing into a fresh export folder (`bunzai export`)."""

from bunzai.tools.contract import Tool
from bunzai.tools.crossing import CrossingArgs, quoted


def run(ctx, args: CrossingArgs):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.convert import export_piece  # it hands the studio's engine checkouts to the adapters

    done = export_piece(ctx.studio, args.ref, args.to, engine=args.engine, source=args.from_engine)
    return quoted(done)


TOOL = Tool(
    name="studio_export",
    title="Export a piece",
    input_model=CrossingArgs,
    effect="apply",
    run=run,
    destructive=False,
    description="Export a piece into another format, written into a new Export/<time> Kit <id>/ folder of "
    "the studio (never over a file); returns the path and the losses.",
)
