"""`bunzai delete` and `bunzai bury`: removing pieces, for good or restorably."""

from __future__ import annotations

from typing import Annotated

import typer

from bunzai.cli import completion
from bunzai.cli.context import studio_of
from bunzai.cli.output import emit


def delete(
    ctx: typer.Context,
    ref: Annotated[
        str, typer.Argument(help="kind/id, or an id that only one kind holds.", autocompletion=completion.piece_refs)
    ],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Delete without asking.")] = False,
    revision: Annotated[
        str | None, typer.Option("--revision", help="Delete only if the stored revision is this one.")
    ] = None,
) -> int:
    """Delete a piece for good.

    Delete a piece for good. A missing piece or another revision is a stale receipt; nothing is written.

    Example: bunzai delete character/ada-2 --yes
    """
    from bunzai.changes.lifecycle import delete_ref
    from bunzai.changes.receipts import exit_code, receipt

    studio = studio_of(ctx, writes=True)
    if not yes:
        from bunzai.cli.confirm import ask, require_terminal

        fd = require_terminal("delete")
        if not ask(fd, f"delete {ref} for good (not to the graveyard)", "Delete?"):
            done = receipt("discarded", op="delete", target={"kind": None, "id": ref}, reason="declined")
            emit(done)
            return 0
    done = delete_ref(studio, ref, revision)
    emit(done)
    return exit_code([done])


def bury(
    ctx: typer.Context,
    ref: Annotated[
        str, typer.Argument(help="kind/id, or an id that only one kind holds.", autocompletion=completion.piece_refs)
    ],
    revision: Annotated[
        str | None, typer.Option("--revision", help="Bury only if the stored revision is this one.")
    ] = None,
) -> int:
    """Move a piece to the graveyard.

    Move a piece to the graveyard (restorable with `bunzai graveyard restore`).

    Example: bunzai bury character/ada-2
    """
    from bunzai.changes.lifecycle import bury_ref
    from bunzai.changes.receipts import exit_code

    done = bury_ref(studio_of(ctx, writes=True), ref, revision)
    emit(done)
    return exit_code([done])


def register(app: typer.Typer) -> None:
    app.command()(delete)
    app.command()(bury)
