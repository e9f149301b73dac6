"""`bunzai init`: make a studio folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from bunzai.cli.output import emit


def init(
    ctx: typer.Context,
    directory: Annotated[
        Path | None,
        typer.Argument(
            help="Folder to make a studio of (default: the one --studio or BUNZAI_STUDIO names, else the current one)."
        ),
    ] = None,
) -> int:
    """Make a folder a studio.

    Make DIR (or the folder --studio or BUNZAI_STUDIO names) a studio (bunzai.toml and the kind
    folders); an existing studio is left as it is.

    Example: bunzai init my-studio
    """
    from bunzai.cli.context import studio_option
    from bunzai.errors import BunzaiError
    from bunzai.store.studio import ENV_STUDIO, init_studio

    given = studio_option(ctx)
    if directory is not None and given and directory.resolve() != Path(given).resolve():
        raise BunzaiError(
            "usage",
            f"init names {directory} and --studio names {given}: two folders",
            "give the folder once, as DIR or as --studio",
        )
    # DIR, else the studio every other command would choose by its flag or BUNZAI_STUDIO (a
    # standing default, which a DIR given outranks), else the current folder
    chosen = directory or given or os.environ.get(ENV_STUDIO) or None
    studio, created = init_studio(Path(chosen) if chosen is not None else Path.cwd())
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
    verify_assets: Annotated[
        bool,
        typer.Option(
            "--verify-assets",
            help="Also read every asset in use and check its bytes against its hash (reads all the media).",
        ),
    ] = False,
) -> int:
    """Check a studio; exit 1 on problems.

    Check a studio: pieces parse and validate, the change log agrees, no leftovers; exit 1 on problems.

    Example: bunzai doctor --verify-assets
    """
    from bunzai.cli.context import studio_of
    from bunzai.store.doctor import examine

    report = examine(studio_of(ctx), repair=repair, verify_assets=verify_assets)
    emit(report)
    return 0 if report["clean"] else 1


def register(app: typer.Typer) -> None:
    app.command()(init)
    app.command()(doctor)
