"""`bunzai promptbook try-line|rehearse`: a promptbook tried without a model. Reads only.

Thin: parse, call bunzai.render.promptbook, print one JSON document.
"""

from __future__ import annotations

from typing import Annotated

import typer

from bunzai.cli.groups import SuggestingGroup

app = typer.Typer(
    cls=SuggestingGroup,
    help=(
        "Try a promptbook without a model.\n\nTry a promptbook without a model: which phases fire on a line "
        "(try-line), each phase's prompt (rehearse)."
    ),
    no_args_is_help=True,
)


@app.command("try-line")
def try_line(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(help="A promptbook (id or promptbook/id).")],
    line: Annotated[str, typer.Argument(help="A user line, as it would be sent.")],
) -> int:
    """Which phases fire on a line, and why.

    Which phases' conditions fire on a line, and why; each phase's library uses checked (missing ones are findings).

    Cards, tools and model-picked skills are not simulated.

    Example: bunzai promptbook try-line my-book "I draw my sword"
    """
    from bunzai.cli.context import studio_of
    from bunzai.cli.output import emit
    from bunzai.render.promptbook import load_promptbook, try_line as run

    studio = studio_of(ctx)
    book_id, book = load_promptbook(studio, ref)
    emit(run(studio, book_id, book, line))
    return 0


@app.command()
def rehearse(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(help="A promptbook (id or promptbook/id).")],
    character: Annotated[
        str | None, typer.Option("--character", "-c", help="The card, for phases that name none.")
    ] = None,
    preset: Annotated[
        str | None, typer.Option("--preset", help="The preset, for phases that name none (the chat's).")
    ] = None,
    persona: Annotated[str | None, typer.Option("--persona", help="The user's persona.")] = None,
    lorebook: Annotated[list[str], typer.Option("--lorebook", "-l", help="A lorebook to scan. Repeatable.")] = None,
    chat: Annotated[
        str | None, typer.Option("--chat", help="A SillyTavern chat .jsonl or a JSON list of {role, content}.")
    ] = None,
    line: Annotated[
        str | None,
        typer.Option("--line", help="The user line conditions are tried on (default: the chat's last user message)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed for random macros and lorebook draws.")] = 0,
) -> int:
    """Each enabled phase's preset, rendered.

    Each enabled phase's preset rendered as `bunzai render` would, private outputs as placeholders, the reply labelled
    reply-only.

    Each phase's library uses are listed (dice rolled as a seeded forecast, regex pieces applied); missing ones are
    findings.

    Example: bunzai promptbook rehearse my-book --character seraphina --preset default
    """
    from bunzai.cli.context import studio_of
    from bunzai.cli.output import emit
    from bunzai.render.promptbook import load_promptbook, rehearse as run

    studio = studio_of(ctx)
    book_id, book = load_promptbook(studio, ref)
    emit(
        run(
            studio,
            book_id,
            book,
            character=character,
            preset=preset,
            persona=persona,
            lorebooks=lorebook or [],
            chat_file=chat,
            seed=seed,
            line=line,
        )
    )
    return 0
