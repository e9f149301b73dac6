"""`bunzai mcp`: serve the studio's tools to agent clients over MCP on stdio."""

from __future__ import annotations

from typing import Annotated

import typer


def mcp(
    ctx: typer.Context,
    studio: Annotated[
        str | None,
        typer.Argument(
            metavar="STUDIO", help="Studio folder (else what --studio, BUNZAI_STUDIO or the nearest bunzai.toml say)."
        ),
    ] = None,
    read_only: Annotated[
        bool, typer.Option("--read-only", help="Serve no tool that drafts, applies or deletes.")
    ] = False,
) -> int:
    """Serve the studio as MCP tools on stdio.

    Serve the studio as MCP tools on stdio (for Claude Code, Cursor, Codex, Zed).

    Example: claude mcp add bunzai -- bunzai mcp ~/my-studio
    """
    from bunzai.cli.context import studio_option
    from bunzai.mcp.server import serve

    return serve(studio if studio is not None else studio_option(ctx), read_only=read_only)


def register(app: typer.Typer) -> None:
    app.command()(mcp)
