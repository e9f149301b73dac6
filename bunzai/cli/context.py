"""Global options shared by every command (the studio), kept on the Typer context."""

from __future__ import annotations

from dataclasses import dataclass

import typer


@dataclass
class Globals:
    studio: str | None = None


def studio_of(ctx: typer.Context):
    """The studio this command works in: --studio, BUNZAI_STUDIO, nearest bunzai.toml, ~/.bunzai/studio."""
    from bunzai.store.studio import find_studio

    root = ctx.find_root()
    options = root.obj if isinstance(root.obj, Globals) else Globals()
    return find_studio(options.studio)
