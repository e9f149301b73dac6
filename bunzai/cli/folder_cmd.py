"""`bunzai folder ...`: shared folders under explicit grants (the studio is a standing grant)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bunzai.cli.groups import SuggestingGroup

from bunzai.cli.context import studio_of
from bunzai.cli.output import emit

app = typer.Typer(
    cls=SuggestingGroup,
    help=(
        "Folders outside the studio bunzai may read.\n\nFolders outside the studio that bunzai may read: grant, "
        "revoke, list, search, read, import."
    ),
    no_args_is_help=True,
)


@app.command()
def grant(ctx: typer.Context, folder: Annotated[Path, typer.Argument(help="Folder to grant.")]) -> int:
    """Let bunzai read FOLDER (kept in bunzai.toml as its real path).

    Example: bunzai folder grant ~/SillyTavern/data/default-user
    """
    from bunzai.folders import grant as grant_folder

    emit(_folders(grant_folder(studio_of(ctx, writes=True), folder)))
    return 0


@app.command()
def revoke(ctx: typer.Context, folder: Annotated[Path, typer.Argument(help="Granted folder to revoke.")]) -> int:
    """Take a grant back.

    Example: bunzai folder revoke ~/SillyTavern/data/default-user
    """
    from bunzai.folders import revoke as revoke_folder

    emit(_folders(revoke_folder(studio_of(ctx, writes=True), folder)))
    return 0


@app.command("list")
def list_folders(ctx: typer.Context) -> int:
    """The granted folders, and the studio (a standing grant).

    Example: bunzai folder list
    """
    from bunzai.folders import granted_folders

    studio = studio_of(ctx)
    emit({"studio": str(studio.root)} | _folders([str(f) for f in granted_folders(studio)]))
    return 0


def _folders(folders: list[str]) -> dict:
    """The granted folders, in the shape of every list-like answer."""
    return {"count": len(folders), "items": folders}


@app.command()
def search(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help="Words every hit's path must hold.")],
    limit: Annotated[int | None, typer.Option("--limit", help="Most hits.")] = None,
) -> int:
    """Find files in granted folders by name.

    Find files in granted folders by name (every word must appear in the path).

    Example: bunzai folder search "seraphina png"
    """
    from bunzai.folders import search as search_folders
    from bunzai.limits import SEARCH_DEFAULT_LIMIT

    emit(search_folders(studio_of(ctx), query, limit or SEARCH_DEFAULT_LIMIT))
    return 0


@app.command()
def read(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="A file (or folder) inside a granted folder.")],
    offset: Annotated[int, typer.Option("--offset", help="First character (of a folder: entry) of the page.")] = 0,
    limit: Annotated[int | None, typer.Option("--limit", help="Characters (of a folder: entries) in the page.")] = None,
) -> int:
    """Read a granted file, a page at a time.

    Read a granted file a page at a time (text), or its size and hash (binary); of a folder,
    its subfolders and files (one level).

    Example: bunzai folder read ~/SillyTavern/data/default-user/worlds/Eldoria.json --limit 200
    """
    from bunzai.errors import BunzaiError
    from bunzai.folders import read_page
    from bunzai.limits import READ_PAGE_DEFAULT, READ_PAGE_MAX

    limit = READ_PAGE_DEFAULT if limit is None else limit
    if offset < 0 or not 1 <= limit <= READ_PAGE_MAX:
        raise BunzaiError(
            "invalid_input",
            f"--offset must be >= 0 and --limit between 1 and {READ_PAGE_MAX}",
            f"leave --limit out for a page of {READ_PAGE_DEFAULT} characters",
        )
    emit(read_page(studio_of(ctx), path, offset, limit))
    return 0


@app.command("import")
def import_(
    ctx: typer.Context,
    paths: Annotated[list[Path], typer.Argument(help="Files or folders inside granted folders.")],
    id: Annotated[str | None, typer.Option("--id", help="Id of the (first) piece; only with one file.")] = None,
) -> int:
    """Import from granted folders.

    Import from granted folders (one-way: drafts on stdout, as `bunzai import`).

    Example: bunzai folder import ~/SillyTavern/data/default-user/worlds/Moonfall.json | bunzai apply --yes
    """
    from bunzai.cli.crossing_cmd import import_ as import_paths
    from bunzai.folders import checked_path

    studio = studio_of(ctx)
    return import_paths(ctx, [checked_path(studio, path) for path in paths], id=id, format=None, on_conflict="refuse")
