"""`bunzai init`: make a studio folder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bunzai.cli.output import emit


def init(
    ctx: typer.Context,
    directory: Annotated[
        Path | None,
        typer.Argument(help="Folder to make a studio of (default: the folder --studio names, else the current one)."),
    ] = None,
) -> int:
    """Make a folder a studio.

    Make DIR (or the folder --studio names) a studio (bunzai.toml and the kind folders); an
    existing studio is left as it is.

    Example: bunzai init my-studio
    """
    from bunzai.cli.context import studio_option
    from bunzai.errors import BunzaiError
    from bunzai.store.studio import init_studio

    given = studio_option(ctx)
    if directory is not None and given is not None and directory.resolve() != Path(given).resolve():
        raise BunzaiError(
            "usage",
            f"init names {directory} and --studio names {given}: two folders",
            "give the folder once, as DIR or as --studio",
        )
    studio, created = init_studio(directory or (Path(given) if given is not None else Path.cwd()))
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
