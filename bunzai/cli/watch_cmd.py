"""`bunzai changes`, `bunzai wait` and `bunzai revert`: watching a studio through its change log."""

from __future__ import annotations

from typing import Annotated

import typer

from bunzai.cli.context import studio_of
from bunzai.cli.output import emit, say


def changes(
    ctx: typer.Context,
    since: Annotated[
        int | None,
        typer.Option(
            "--since",
            metavar="SEQ",
            help="Report the changes after this seq; the session's cursor is left where it is.",
        ),
    ] = None,
    session: Annotated[
        str | None,
        typer.Option(
            "--session", metavar="ID", help="Whose cursor (default: $BUNZAI_SESSION, else this process's random id)."
        ),
    ] = None,
    save: Annotated[
        bool | None,
        typer.Option(
            "--save-cursor/--no-save-cursor",
            help="Refuse unless the cursor can be moved / never move it. By default a studio this process "
            "cannot write is read all the same, the cursor left (cursor_saved: false).",
            show_default=False,
        ),
    ] = None,
) -> int:
    """What changed since this session last read.

    What changed since this session last read, in seq order, each change naming the session that made it.

    Example: BUNZAI_SESSION=agent-1 bunzai changes
    """
    from bunzai.changes.watch import studio_changes

    emit(studio_changes(studio_of(ctx), session, since, save))
    return 0


def wait(
    ctx: typer.Context,
    changed_since: Annotated[
        int | None, typer.Option("--changed-since", metavar="SEQ", help="Until a change with a seq above SEQ lands.")
    ] = None,
    piece_exists: Annotated[
        str | None, typer.Option("--piece-exists", metavar="REF", help="Until kind/id (or an id) exists.")
    ] = None,
    revision_changed: Annotated[
        str | None,
        typer.Option("--revision-changed", metavar="REF@REV", help="Until the piece is at another revision, or gone."),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option("--timeout", metavar="S", help="Seconds to wait at most (default 15, at most 55)."),
    ] = None,
) -> int:
    """Wait until a condition holds, or time out.

    Wait until one condition holds, or the timeout: `met` says which (a timeout exits 0).

    Example: bunzai wait --piece-exists character/seraphina --timeout 30
    """
    from bunzai.changes.watch import studio_wait

    emit(
        studio_wait(
            studio_of(ctx),
            changed_since=changed_since,
            piece_exists=piece_exists,
            revision_changed=revision_changed,
            timeout=timeout,
        )
    )
    return 0


def revert(
    ctx: typer.Context,
    session: Annotated[
        str | None,
        typer.Option("--session", metavar="ID", help="The session whose changes to undo (default: $BUNZAI_SESSION)."),
    ] = None,
) -> int:
    """Undo a session's own changes, newest first.

    Undo a session's own changes, newest first; pieces another session changed since are left.

    Example: bunzai revert --session agent-1
    """
    import os

    from bunzai.changes.revert import studio_revert, unconfirmed
    from bunzai.errors import BunzaiError
    from bunzai.store.changelog import ENV_SESSION

    if session is None and not os.environ.get(ENV_SESSION):
        raise BunzaiError(
            "usage",
            "revert needs the session whose changes to undo",
            hint="pass --session ID, or set BUNZAI_SESSION",
        )
    # None: $BUNZAI_SESSION, refused by the same rule as every write when it is not a session id
    done = studio_revert(studio_of(ctx, writes=True), session)
    emit(done)
    shaky = unconfirmed(done)
    if shaky:  # undone, but a power cut may still undo the undo: said on stderr, as `apply` says it
        say(
            f"bunzai: {len(shaky)} change(s) reverted but not confirmed durable (the disk failed the last sync): "
            "their rows' receipts say `durable: false`; a power cut may still undo them"
        )
    return 0 if done["forbidden"] + done["unavailable"] + done["failed"] == 0 and not shaky else 1


def register(app: typer.Typer) -> None:
    app.command()(changes)
    app.command()(wait)
    app.command()(revert)
