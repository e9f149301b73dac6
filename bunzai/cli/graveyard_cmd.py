"""`bunzai graveyard list|restore`: buried pieces, newest first."""

from __future__ import annotations

from typing import Annotated

import typer

from bunzai.cli.groups import SuggestingGroup

from bunzai.cli.context import studio_of
from bunzai.cli.output import emit

app = typer.Typer(cls=SuggestingGroup, help="Buried pieces: list them, restore one.", no_args_is_help=True)


@app.command("list")
def list_entries(ctx: typer.Context) -> int:
    """List buried pieces, newest first.

    Example: bunzai graveyard list
    """
    from bunzai.store.graveyard import list_graveyard

    entries = list_graveyard(studio_of(ctx))
    emit({"count": len(entries), "items": entries})
    return 0


@app.command()
def restore(
    ctx: typer.Context,
    entry: Annotated[
        str, typer.Argument(help="An entry from `graveyard list`, e.g. character/ada-2@20261130T051500123456Z.")
    ],
) -> int:
    """Put a buried piece back.

    Put a buried piece back; refused (stale, occupied) when its id was taken since.

    Example: bunzai graveyard restore character/ada-2@20261130T051500123456Z
    """
    from bunzai.changes.lifecycle import restore_entry
    from bunzai.changes.receipts import exit_code

    done = restore_entry(studio_of(ctx, writes=True), entry)
    emit(done)
    return exit_code([done])
