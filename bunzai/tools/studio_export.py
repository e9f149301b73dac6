"""studio_export: write a piece's crossing into a fresh export folder (`bunzai export`)."""

from typing import Optional

from pydantic import Field

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


# Keys bunzai makes (ids, hashes, sizes); losses, the linked book's report and the rest quote the piece.
PLAIN = frozenset(
    {
        "type",
        "status",
        "reason",
        "op",
        "target",
        "ref",
        "revision",
        "seq",
        "path",
        "format",
        "label",
        "file_name",
        "size",
        "sha256",
    }
)


class Args(ToolArgs):
    ref: str = Field(description="kind/id of the piece.")
    to: str = Field(description="Target format id, e.g. sillytavern.card.png.")
    engine: Optional[str] = Field(None, description="Translate macros for this engine.")
    from_engine: Optional[str] = Field(None, description="Read the piece's macros as this engine's.")


def run(ctx, args: Args):
    from bunzai.convert import export_piece  # it hands the studio's engine checkouts to the adapters

    done = export_piece(ctx.studio, args.ref, args.to, engine=args.engine, source=args.from_engine)
    return {key: value if key in PLAIN else untrusted(value) for key, value in done.items()}


TOOL = Tool(
    name="studio_export",
    title="Export a piece",
    input_model=Args,
    effect="apply",
    run=run,
    destructive=False,
    description="Export a piece into another format, written into a new Export/<time> Kit <id>/ folder of "
    "the studio (never over a file); returns the path and the losses.",
)
