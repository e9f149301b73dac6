"""`bunzai render` and `bunzai preset-verify`: a preset assembled with a character, lorebooks
and a chat, in stages; and the same render checked for what would go wrong. Both read only.

Thin: parse, call bunzai.render, print one JSON document (or, with --text, the final prompt).
"""

from __future__ import annotations

from typing import Annotated

import typer

Character = Annotated[str, typer.Option("--character", "-c", help="The character (id or character/id).")]
Persona = Annotated[str | None, typer.Option("--persona", help="The user's persona (id or persona/id).")]
Lorebook = Annotated[
    list[str], typer.Option("--lorebook", "-l", help="A lorebook to scan, besides the character's. Repeatable.")
]
Regex = Annotated[
    list[str],
    typer.Option("--regex", help="A regex set whose prompt rules apply, besides the character's. Repeatable."),
]
Chat = Annotated[
    str | None, typer.Option("--chat", help="A SillyTavern chat .jsonl or a JSON list of {role, content}.")
]
Seed = Annotated[
    int, typer.Option("--seed", help="Seed for {{random}}, {{pick}}, {{roll}}, lorebook probability and groups.")
]
Note = Annotated[str, typer.Option("--authors-note", help="The chat's author's note (injected at depth 4 as system).")]
Instruct = Annotated[
    str | None,
    typer.Option("--instruct", help="Text completion: the instruct template (a preset of family instruct)."),
]
Context = Annotated[
    str | None, typer.Option("--context", help="Text completion: the context template (a preset of family context).")
]
Sysprompt = Annotated[
    str | None,
    typer.Option(
        "--sysprompt",
        help="Text completion: the system prompt template (family sysprompt); without it, SillyTavern's default "
        "one (Neutral - Chat).",
    ),
]

MacroEngine = Annotated[
    str | None,
    typer.Option(
        "--macro-engine",
        help="SillyTavern's macro engine to follow: 2.0 (a new SillyTavern's, the default) or legacy.",
    ),
]

NoSysprompt = Annotated[
    bool,
    typer.Option(
        "--no-sysprompt",
        help="Render with SillyTavern's system prompt switched off: no system prompt and no post-history "
        "instructions in text completion, the card's neither; {{systemPrompt}} gives nothing.",
    ),
]


def _st_root(ctx: typer.Context) -> str | None:
    from bunzai.cli.context import studio_of
    from bunzai.render.st_real import configured_root

    return configured_root(studio_of(ctx))


def _gather(
    ctx: typer.Context,
    preset: str,
    character: str,
    persona,
    lorebook,
    regex,
    chat,
    instruct=None,
    context=None,
    sysprompt=None,
) -> dict:
    from bunzai.cli.context import studio_of
    from bunzai.render.render import gather

    return gather(
        studio_of(ctx),
        preset,
        character,
        persona_ref=persona,
        lorebook_refs=lorebook,
        regex_refs=regex,
        chat_file=chat,
        instruct_ref=instruct,
        context_ref=context,
        sysprompt_ref=sysprompt,
    )


def render(
    ctx: typer.Context,
    preset: Annotated[
        str,
        typer.Argument(help="A chat-completion preset, or a context template for text completion (id or preset/id)."),
    ],
    character: Character,
    persona: Persona = None,
    lorebook: Lorebook = None,
    regex: Regex = None,
    chat: Chat = None,
    stage: Annotated[
        str | None, typer.Option("--stage", help="Only this stage: raw, lore, macros, regex or final.")
    ] = None,
    seed: Seed = 0,
    authors_note: Note = "",
    instruct: Instruct = None,
    context: Context = None,
    sysprompt: Sysprompt = None,
    text: Annotated[
        bool, typer.Option("--text", help="Print the final prompt as readable text instead of JSON.")
    ] = False,
    macro_engine: MacroEngine = None,
    no_sysprompt: NoSysprompt = False,
) -> int:
    """The prompt a preset sends, stage by stage.

    The prompt a preset sends, in stages raw, lore, macros, regex, final, with which block and source each part came
    from.
    Chat completion from a chat-completion preset; text completion from a context template (with --instruct,
    --sysprompt).

    Example: bunzai render default --character seraphina --chat chat.jsonl --stage final
    """
    from bunzai.cli.output import emit
    from bunzai.render.render import macro_engine as engine_of, render as run

    engine = engine_of(macro_engine)
    doc = run(
        _gather(ctx, preset, character, persona, lorebook or [], regex or [], chat, instruct, context, sysprompt),
        seed=seed,
        stage="final" if text else stage,
        authors_note=authors_note,
        st_root=_st_root(ctx),
        engine=engine,
        sysprompt_enabled=not no_sysprompt,
    )
    if text:
        import sys

        if doc.get("prompt") is not None:
            sys.stdout.write(doc["prompt"].rstrip("\n") + "\n")
            return 0
        for message in doc["messages"]:
            sys.stdout.write(
                f"--- {message['role']} · {message['block']} · {message['source']} · ~{message['tokens']} tokens\n"
            )
            sys.stdout.write(message["content"].rstrip("\n") + "\n")
        return 0
    emit(doc)
    return 0


def preset_verify(
    ctx: typer.Context,
    preset: Annotated[
        str,
        typer.Argument(help="A chat-completion preset, or a context template for text completion (id or preset/id)."),
    ],
    character: Character,
    persona: Persona = None,
    lorebook: Lorebook = None,
    regex: Regex = None,
    chat: Chat = None,
    seed: Seed = 0,
    authors_note: Note = "",
    engine: Annotated[
        str | None, typer.Option("--engine", help="Also report macros this engine reads differently (e.g. risuai).")
    ] = None,
    instruct: Instruct = None,
    context: Context = None,
    sysprompt: Sysprompt = None,
    macro_engine: MacroEngine = None,
    no_sysprompt: NoSysprompt = False,
) -> int:
    """Report what in a preset would not work.

    Render a preset and report what would not work: unknown macros, empty blocks, markers with no source, unreachable
    blocks, dead lorebook entries and regex rules. Exit 1 with findings.

    Example: bunzai preset-verify default --character seraphina
    """
    from bunzai.cli.output import emit
    from bunzai.render.render import macro_engine as engine_of
    from bunzai.render.verify import verify

    chosen = engine_of(macro_engine)
    doc = verify(
        _gather(ctx, preset, character, persona, lorebook or [], regex or [], chat, instruct, context, sysprompt),
        seed=seed,
        engine=engine,
        authors_note=authors_note,
        st_root=_st_root(ctx),
        macro_engine=chosen,
        sysprompt_enabled=not no_sysprompt,
    )
    emit(doc)
    return 0 if doc["clean"] else 1


def register(root: typer.Typer) -> None:
    root.command("render")(render)
    root.command("preset-verify")(preset_verify)
