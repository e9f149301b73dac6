"""studio_read: a stored piece whole, its outline, or one page of a long value (`bunzai read`)."""

from pydantic import Field

from bunzai.limits import READ_PAGE_MAX

from bunzai.query.reading import read_piece
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    ref: str = Field(
        description="kind/id of the piece (e.g. character/seraphina), or an id only one kind holds (e.g. seraphina)."
    )
    outline: bool = Field(
        False, description="List the immediate children (of pointer) as JSON pointers instead of values."
    )
    pointer: str | None = Field(None, description="RFC 6901 pointer into the piece, e.g. /body/description.")
    offset: int = Field(0, ge=0, description="First character/item/key of the page.")
    limit: int | None = Field(
        None, ge=1, le=READ_PAGE_MAX, description=f"Characters/items/keys in the page (at most {READ_PAGE_MAX:,})."
    )


def run(ctx, args: Args):
    doc, what = read_piece(
        ctx.studio, args.ref, outline=args.outline, pointer=args.pointer, offset=args.offset, limit=args.limit
    )
    head = {key: doc[key] for key in ("kind", "id", "revision", "path")}
    rest = {key: value for key, value in doc.items() if key not in head}
    return head | {"as": what, what: untrusted(rest["piece"] if what == "piece" else rest)}


TOOL = Tool(
    name="studio_read",
    title="Read a piece",
    input_model=Args,
    effect="read",
    run=run,
    description="Read a stored piece with its revision: whole (a long one comes back as a result handle), "
    "as an outline of JSON pointers, or one page of a long value (pointer, offset, limit).",
)
