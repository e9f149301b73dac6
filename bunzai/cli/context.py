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


def studio_of(ctx: typer.Context):
    """The studio this command works in: --studio, BUNZAI_STUDIO, nearest bunzai.toml, ~/.bunzai/studio."""
    from bunzai.store.studio import find_studio

    return find_studio(studio_option(ctx))
