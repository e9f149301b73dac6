"""`bunzai art REF [--out FILE] [--show]`: a piece's portrait (or a pack's face) as a file, or drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bunzai.cli.context import studio_of
from bunzai.cli.output import emit


def art(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(help="The piece: kind/id or a bare id.")],
    out: Annotated[
        str | None,
        typer.Option("--out", metavar="FILE", help="Write here (create-only); default ID.EXT in the current folder."),
    ] = None,
    show: Annotated[
        bool,
        typer.Option("--show", help="Draw the image on this terminal (kitty, iTerm2); writes a file only with --out."),
    ] = False,
) -> int:
    """Write or draw a piece's portrait.

    Writes a piece's portrait (or a pack's face) to a new file, or draws it (--show). Prints the file's path, MIME
    type, size and sha256. Never overwrites: a taken FILE is
    refused. A piece with no stored image is refused with no_art.

    Example: bunzai art seraphina --out sera.png
    """
    import sys

    from bunzai.cli import terminal_image
    from bunzai.errors import BunzaiError
    from bunzai.query.reading import main_art
    from bunzai.store.assets import read_asset

    studio = studio_of(ctx)
    found = main_art(studio, ref)
    row = found["art"]
    data = read_asset(studio, row["sha256"], row["ext"])  # its hash checked; a splice rebuilt
    mime = row["mime"] or _mime_of(row["ext"], data)
    kind = terminal_image.protocol() if show else None
    if show and (kind is None or not sys.stderr.isatty()):
        raise BunzaiError(
            "no_inline_images",
            "this terminal cannot show images (kitty and iTerm2 can)",
            "run it in kitty or iTerm2, or write the file with --out and open it",
        )
    if show and not terminal_image.can_draw(kind, mime):
        raise BunzaiError(
            "no_inline_images", f"{kind} draws PNG images only, not {mime}", "write it with --out and open it"
        )
    target = Path(out) if out is not None else (None if show else Path(f"{found['id']}.{row['ext']}"))
    if target is not None:
        _write_new(target, data)
    if kind is not None:
        sys.stderr.write(terminal_image.escape(kind, data, mime))
        sys.stderr.flush()
    emit(
        {
            "kind": found["kind"],
            "id": found["id"],
            "pointer": row["pointer"],
            "path": str(target) if target else None,
            "mime": mime,
            "size": len(data),
            "sha256": row["sha256"],
            "shown": kind,
        }
    )
    return 0


def _write_new(path: Path, data: bytes) -> None:
    from bunzai.errors import BunzaiError

    try:
        handle = open(path, "xb")
    except FileExistsError:
        raise BunzaiError(
            "occupied", f"{path} already exists; bunzai art never overwrites", "name another file with --out"
        ) from None
    except FileNotFoundError:
        raise BunzaiError("not_found", f"no folder for {path}", "create the folder first") from None
    try:
        with handle:
            handle.write(data)
    except OSError:
        path.unlink(missing_ok=True)  # no half-written image left behind
        raise


def _mime_of(ext: str, data: bytes) -> str:
    """A stored image's type when the piece names none: by its bytes, else its extension as
    SillyTavern's table reads it (the same on every machine, not the machine's mime.types)."""
    from bunzai.adapters.sillytavern.sprites import mime_of

    return mime_of(ext, data) or "application/octet-stream"


def register(app: typer.Typer) -> None:
    app.command()(art)
