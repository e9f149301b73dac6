"""regex_from_drawing: a drawing (htmldoc) turned into a regex replacement rule (`bunzai regex-from-drawing`)."""

from typing import Literal

from pydantic import Field

from bunzai.errors import BunzaiError
from bunzai.query.reading import stored_drawing
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    drawing: str | None = Field(None, description="A studio htmldoc (kind/id); or give markup.")
    markup: str | None = Field(None, description="The HTML of the drawing, when it is not in the studio.")
    pattern: str = Field(description="The find-regex whose captures fill the slots.")
    slots: dict[str, int] = Field(
        default_factory=dict, description="Slot name -> capture number (0 = the whole match)."
    )
    sample: str | None = Field(None, description="A text the rule must match; it is run in the engine.")
    platform: Literal["javascript", "sillytavern", "risuai"] = Field(
        "javascript", description="How the pattern is read."
    )
    flags: str | None = Field(None, description="Flags; the pattern is then bare.")
    name: str | None = Field(None, description="The rule's name (default: the drawing's).")


def run(ctx, args: Args):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.regexlab.drawing import regex_from_drawing

    if (args.drawing is None) == (args.markup is None):
        raise BunzaiError(
            "invalid_input",
            "give the drawing one way: drawing (a studio htmldoc) or markup",
            'e.g. {"drawing": "htmldoc/ID"} or {"markup": "<div>...</div>"}',
        )
    if args.drawing is not None:
        markup, title, declared = stored_drawing(ctx.studio, args.drawing)
    else:
        markup, title, declared = args.markup, "drawing", []
    return untrusted(
        regex_from_drawing(
            markup,
            args.pattern,
            args.slots,
            sample=args.sample,
            platform=args.platform,
            flags=args.flags,
            name=args.name or title,
            declared=declared,
        )
    )


TOOL = Tool(
    name="regex_from_drawing",
    title="Regex from a drawing",
    input_model=Args,
    effect="read",
    run=run,
    description="Turn an HTML drawing into a regex replacement rule whose captures fill its slots, ready for "
    "the regex.rules.add capability; with a sample, the rule is run on it.",
)
