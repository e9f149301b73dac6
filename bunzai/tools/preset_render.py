"""preset_render: the prompt a preset sends, stage by stage (`bunzai render`)."""

from typing import Literal

from pydantic import Field

from bunzai.tools.contract import Tool, untrusted
from bunzai.tools.preset_verify import RenderArgs, engine_present, gathered


class Args(RenderArgs):
    stage: Literal["raw", "lore", "macros", "regex", "final", "all"] = Field(
        "final",
        description="The stage to return: raw (blocks as written), lore (with the lorebook entries), macros, regex, "
        "final (as sent, with token estimates; when omitted), or all of them.",
    )


def run(ctx, args: Args):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.render.render import macro_engine, render
    from bunzai.render.st_real import configured_root

    doc = render(
        gathered(ctx, args),
        seed=args.seed,
        stage=None if args.stage == "all" else args.stage,
        authors_note=args.authors_note,
        st_root=configured_root(ctx.studio),
        engine=macro_engine(args.macro_engine),
        sysprompt_enabled=not args.sysprompt_off,
    )
    return {"render": untrusted(doc)}


TOOL = Tool(
    name="preset_render",
    title="Render a preset",
    input_model=Args,
    effect="read",
    run=run,
    available=engine_present,
    description="The prompt a preset sends with a character, persona, lorebooks and a chat: each message with "
    "its block, source and token estimate, and which lorebook entries fired and why. Nothing is generated.",
)
