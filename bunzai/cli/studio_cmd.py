"""`bunzai init`: make a studio folder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bunzai.cli.output import emit


def init(
    directory: Annotated[
        Path | None, typer.Argument(help="Folder to make a studio of (default: the current folder).")
    ] = None,
) -> int:
    """Make a folder a studio.

    Make DIR a studio (bunzai.toml and the kind folders); an existing studio is left as it is.

    Example: bunzai init my-studio
    """
    from bunzai.store.studio import init_studio

    studio, created = init_studio(directory or Path.cwd())
    emit({"studio": str(studio.root), "created": created})
    return 0


def doctor(
    ctx: typer.Context,
    repair: Annotated[
        bool,
        typer.Option(
            "--repair",
            help="Remove temp files and lock files of writers that are gone, and orphan assets; nothing else.",
        ),
    ] = False,
) -> int:
    """Check a studio; exit 1 on problems.

    Check a studio: pieces parse and validate, the change log agrees, no leftovers; exit 1 on problems.

    Example: bunzai doctor --repair
    """
    from bunzai.cli.context import studio_of
    from bunzai.store.doctor import examine

    report = examine(studio_of(ctx), repair=repair)
    emit(report)
    return 0 if report["clean"] else 1


def register(app: typer.Typer) -> None:
    app.command()(init)
    app.command()(doctor)
