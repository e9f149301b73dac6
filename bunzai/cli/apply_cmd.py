"""`bunzai apply`: the one door through which drafts are written."""

from __future__ import annotations

from typing import Annotated

import typer

from bunzai.cli.context import studio_of
from bunzai.cli.output import emit, emit_lines, pass_error_on


def apply(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(help="Draft file, - for stdin (one draft, a JSON array, or JSON lines), or the NAME of a saved draft.")] = "-",
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Apply without showing the review and asking.")] = False,
) -> int:
    """Apply drafts: review each (unless --yes), check the stored revision, save, verify, print a receipt.

    Example: bunzai create character --input '{"name": "Ada Lovelace"}' | bunzai apply --yes
    """
    from bunzai.changes.apply import apply_batch
    from bunzai.changes.draft import parse_draft
    from bunzai.changes.receipts import exit_code
    from bunzai.cli.inputs import read_documents

    from bunzai.cli.draft_cmd import saved_draft

    saved = saved_draft(source, ctx)
    docs, single = ([saved], True) if saved is not None else read_documents(source)
    for doc in docs:
        if isinstance(doc, dict) and "error" in doc:
            return pass_error_on(doc)
    drafts = [parse_draft(doc) for doc in docs]  # refuse a malformed batch before any write
    studio = studio_of(ctx)
    receipts = apply_batch(studio, drafts, None if yes else _asker())
    if single:
        emit(receipts[0])
    else:
        emit_lines(receipts)
    return exit_code(receipts)


def _asker():
    """Asks on the terminal about each draft, showing its review card (refuses without one)."""
    from bunzai.changes.review import review_card
    from bunzai.cli.confirm import ask, require_terminal

    terminal = require_terminal("apply")
    return lambda draft: ask(terminal, review_card(draft), "Apply?")


def register(app: typer.Typer) -> None:
    app.command()(apply)
