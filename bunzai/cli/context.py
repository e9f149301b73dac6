"""Global options shared by every command (the studio), kept on the Typer context."""

from __future__ import annotations

from dataclasses import dataclass

import typer


@dataclass
class Globals:
    studio: str | None = None


def studio_option(ctx: typer.Context) -> str | None:
    """The global --studio given on the command line, if any."""
    root = ctx.find_root()
    options = root.obj if isinstance(root.obj, Globals) else Globals()
    return options.studio


def studio_of(ctx: typer.Context, *, writes: bool = False):
    """The studio this command works in: --studio, BUNZAI_STUDIO, nearest bunzai.toml, ~/.bunzai/studio
    (created on first use only by a command that `writes`; see `bunzai.cli.studio_choice`)."""
    from bunzai.cli.studio_choice import open_studio

    return open_studio(studio_option(ctx), writes=writes)
