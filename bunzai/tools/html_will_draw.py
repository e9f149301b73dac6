"""html_will_draw: what a sealed preview strips from a drawing (`bunzai html-will-draw`)."""

from pydantic import Field

from bunzai.errors import BunzaiError
from bunzai.query.reading import stored_drawing
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    drawing: str | None = Field(None, description="A studio htmldoc (kind/id); or give markup.")
    markup: str | None = Field(None, description="The HTML, when it is not in the studio.")


def run(ctx, args: Args):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.render.will_draw import html_will_draw

    if (args.drawing is None) == (args.markup is None):
        raise BunzaiError(
            "invalid_input",
            "give the drawing one way: drawing (a studio htmldoc) or markup",
            'e.g. {"drawing": "htmldoc/ID"} or {"markup": "<div>...</div>"}',
        )
    if args.drawing is not None:
        markup = stored_drawing(ctx.studio, args.drawing)[0]
    else:
        markup = args.markup
    return untrusted(html_will_draw(markup))


TOOL = Tool(
    name="html_will_draw",
    title="What a drawing will draw",
    input_model=Args,
    effect="read",
    run=run,
    description="Say what a sealed preview strips from an HTML drawing, which addresses cannot load and which "
    "handlers never fire. Not a safety check.",
)
