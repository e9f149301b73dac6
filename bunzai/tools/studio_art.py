"""studio_art: where a piece's art is and its type; the bytes never go to the model."""

from pydantic import Field

from bunzai.query.reading import art_of
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    ref: str = Field(description="kind/id of the piece.")


def run(ctx, args: Args):
    doc = art_of(ctx.studio, args.ref)
    return doc | {"items": untrusted(doc["items"])}  # pointers hold the piece's own keys


TOOL = Tool(
    name="studio_art",
    title="Where a piece's art is",
    input_model=Args,
    effect="read",
    run=run,
    description="List a piece's media (portrait, sprites, backgrounds): where each is referenced (pointer), "
    "its stored file, type and size. Never the image bytes.",
)
