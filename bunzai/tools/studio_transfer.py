"""studio_transfer: what crossing a piece into another format would cost (`bunzai transfer`)."""

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
    to: str = Field(description="Target format id, e.g. sillytavern.card.png or ccv3.json (see `bunzai formats`).")
    engine: Optional[str] = Field(None, description="Translate macros for this engine (e.g. risuai).")
    from_engine: Optional[str] = Field(None, description="Read the piece's macros as this engine's.")


def run(ctx, args: Args):
    from bunzai.convert import transfer_report  # it hands the studio's engine checkouts to the adapters

    report = transfer_report(ctx.studio, args.ref, args.to, engine=args.engine, source=args.from_engine)
    return {key: value if key in PLAIN else untrusted(value) for key, value in report.items()}


TOOL = Tool(
    name="studio_transfer",
    title="Preview a crossing",
    input_model=Args,
    effect="read",
    run=run,
    description="Preview converting a piece into another platform's format: file name, size and every field "
    "that would not survive. Writes nothing.",
)
