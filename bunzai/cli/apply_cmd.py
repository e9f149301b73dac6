"""`bunzai apply`: the one door through which drafts are written."""

from __future__ import annotations

from typing import Annotated

import typer

from bunzai.cli.context import studio_of
from bunzai.cli.output import emit, emit_line, say
from bunzai.errors import BunzaiError


def apply(
    ctx: typer.Context,
    source: Annotated[
        str,
        typer.Argument(
            help="Draft file, - for stdin (one draft, a JSON array, or JSON lines), or the NAME of a saved draft."
        ),
    ] = "-",
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Apply without showing the review and asking.")] = False,
    allow_empty: Annotated[
        bool,
        typer.Option(
            "--allow-empty", help="Input with no draft (empty, or []) applies nothing and succeeds, for scripts."
        ),
    ] = False,
) -> int:
    """Apply drafts: review, check, save, receipt.

    Apply drafts: review each (unless --yes), check the stored revision, save, verify, print a receipt.

    Reads and applies one draft at a time, so a pipe from `bunzai import` of any size works;
    receipts come out as JSON lines as their writes become durable (one document when one
    draft came in). Exit 1 when anything was refused or failed, or written but not confirmed durable
    (a receipt's `durable: false`: the disk failed the last sync). Input with no draft is refused,
    unless --allow-empty (`import --on-conflict skip` of a library that holds nothing new).

    Example: bunzai create character --input '{"name": "Grace Hopper"}' | bunzai apply --yes
    """
    from bunzai.changes.apply import apply_stream
    from bunzai.cli.draft_cmd import saved_draft
    from bunzai.cli.inputs import document_stream
    from bunzai.cli.progress import Progress

    saved = saved_draft(source, ctx)
    stream = None if saved is not None else document_stream(source, allow_empty=allow_empty)
    studio = studio_of(ctx, writes=True)
    docs = [saved] if saved is not None else stream
    outputs = apply_stream(studio, docs, None if yes else _asker())
    progress = Progress("applying", "applied", after=2)
    held, streaming, refused = None, False, False
    taken: dict[str, int] = {}  # kind/id of each create refused because the id is taken -> how many
    named = False  # whether any of their receipts names the file it was read from
    unconfirmed: list[dict] = []  # receipts of pieces written whole but not confirmed durable (a failed disk)
    try:
        for out in outputs:
            refused = refused or out.get("status") not in ("applied", "discarded") or out.get("durable") is False
            if out.get("durable") is False:
                unconfirmed.append(out)
            target = out.get("target") or {}
            if out.get("reason") == "occupied":
                ref = f"{target.get('kind')}/{target.get('id')}"
                taken[ref] = taken.get(ref, 0) + 1
                named = named or "source" in out
            progress.step(f"{target.get('kind', 'error')}/{target.get('id', '')}")
            if held is None and not streaming:
                held = out
                continue
            if not streaming:
                emit_line(held)
                streaming = True
            emit_line(out)
    except BaseException:  # Ctrl-C, a failure: the receipt held back still says what became of its draft
        if held is not None and not streaming:
            emit_line(held)
        raise
    progress.done()
    if held is None and not streaming and allow_empty:
        say(f"bunzai: {stream.what if stream is not None else source} holds no drafts: nothing to apply")
        return 0
    if held is None and not streaming:  # `[]`: JSON lines of no receipts would print nothing at all
        raise BunzaiError(
            "invalid_input",
            f"{stream.what if stream is not None else source} holds no drafts (an empty array): nothing was applied",
            "give apply one draft or more; with nothing to apply, skip the call",
        )
    if held is not None and not streaming:
        (emit if stream is None or stream.single else emit_line)(held)
    if taken:  # said on stderr too: a library's second card of one name is easy to miss among receipts
        # each id once (a library's sixth Alice says no more than its second), with how many it refused
        refs = [ref + (f" ({count} drafts)" if count > 1 else "") for ref, count in taken.items()]
        shown = ", ".join(refs[:5]) + (f" and {len(refs) - 5} more id(s)" if len(refs) > 5 else "")
        keep = (
            "their receipts name the files (`source`): import those again with --on-conflict suffix to keep "
            "both, or skip to leave them out"
            if named
            else "give them other ids to keep both"
        )
        say(f"bunzai: {sum(taken.values())} draft(s) not applied because their id is taken: {shown}; {keep}")
    if unconfirmed:  # a failed disk: the receipts' `durable: false` is easy to miss among applied ones
        say(
            f"bunzai: {len(unconfirmed)} draft(s) written whole but not confirmed durable (the disk failed the "
            "last sync): their receipts say `durable: false`; a power cut may still undo them"
        )
    return 1 if refused else 0


def _asker():
    """Asks on the terminal about each draft, showing its review card (refuses without one)."""
    from bunzai.changes.review import review_card
    from bunzai.cli.confirm import ask, require_terminal

    terminal = require_terminal("apply")
    return lambda draft: ask(terminal, review_card(draft), "Apply?")


def register(app: typer.Typer) -> None:
    app.command()(apply)
