"""preset_verify: render a preset and report what would not work (`bunzai preset-verify`)."""

from typing import Any, Literal

from pydantic import Field

from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class RenderArgs(ToolArgs):
    """What a render reads (preset_render takes these, preset_verify these and `engine`)."""

    preset: str = Field(
        description="A chat-completion preset, or a context template for text completion (id or preset/id)."
    )
    character: str = Field(description="The character (id or character/id).")
    persona: str | None = Field(None, description="A persona.")
    lorebooks: list[str] = Field(default_factory=list, description="Lorebooks to activate.")
    regex: list[str] = Field(default_factory=list, description="Regex sets to run.")
    seed: int = Field(0, description="Seed for random macros.")
    chat: list[dict[str, Any]] | None = Field(
        None,
        description="The chat, oldest first: messages {role, content[, name]} or SillyTavern's {name, is_user, mes}.",
    )
    authors_note: str = Field("", description="The chat's author's note (injected at depth 4 as system).")
    instruct: str | None = Field(
        None, description="Text completion: the instruct template (a preset of family instruct)."
    )
    context: str | None = Field(None, description="Text completion: the context template (a preset of family context).")
    sysprompt: str | None = Field(
        None,
        description="Text completion: the system prompt template (family sysprompt); without it, SillyTavern's "
        "default one (Neutral - Chat).",
    )
    macro_engine: Literal["2.0", "legacy"] = Field(
        "2.0", description="SillyTavern's macro engine to follow: 2.0 (a new SillyTavern's) or legacy."
    )
    sysprompt_off: bool = Field(
        False,
        description="SillyTavern's system prompt switched off: no system prompt and no post-history instructions "
        "in text completion, the card's neither.",
    )


class Args(RenderArgs):
    engine: str | None = Field(None, description="Also report macros this engine reads differently (e.g. risuai).")


def engine_present(ctx) -> bool:
    """The render runs regex stages in the embedded ECMAScript engine; without it the tool is absent."""
    import importlib.util

    return importlib.util.find_spec("_quickjs") is not None


def gathered(ctx, args: RenderArgs) -> dict:
    """The pieces a render of `args` reads (render.gather), the chat given inline."""
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.render.render import chat_messages, gather, hidden_note

    pieces = gather(
        ctx.studio,
        args.preset,
        args.character,
        persona_ref=args.persona,
        lorebook_refs=args.lorebooks,
        regex_refs=args.regex,
        instruct_ref=args.instruct,
        context_ref=args.context,
        sysprompt_ref=args.sysprompt,
    )
    if args.chat is not None:
        hidden: list[int] = []
        pieces["chat"] = chat_messages(args.chat, "the chat", hidden)
        pieces["notes"] = pieces["notes"] + hidden_note(hidden)
    return pieces


def run(ctx, args: Args):
    from bunzai.render.render import macro_engine
    from bunzai.render.st_real import configured_root
    from bunzai.render.verify import verify

    doc = verify(
        gathered(ctx, args),
        seed=args.seed,
        engine=args.engine,
        authors_note=args.authors_note,
        st_root=configured_root(ctx.studio),
        macro_engine=macro_engine(args.macro_engine),
        sysprompt_enabled=not args.sysprompt_off,
    )
    return {"clean": doc.get("clean"), "report": untrusted(doc)}


TOOL = Tool(
    name="preset_verify",
    title="Verify a preset",
    input_model=Args,
    effect="read",
    run=run,
    available=engine_present,
    description="Render a preset with a character and report what would not work: unknown macros, empty "
    "blocks, markers with no source, unreachable blocks, dead lorebook entries and regex rules.",
)
