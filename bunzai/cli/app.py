"""The Typer application: global options, then one module per command group."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from bunzai.cli.groups import SuggestingGroup

from bunzai.cli import (
    apply_cmd,
    cap_cmd,
    crossing_cmd,
    draft_cmd,
    folder_cmd,
    graveyard_cmd,
    lifecycle_cmd,
    pieces_cmd,
    studio_cmd,
)
from bunzai.cli import macro_cmd
from bunzai.cli.context import Globals

app = typer.Typer(
    cls=SuggestingGroup,
    name="bunzai",
    help="A studio for AI-roleplay content: cards, lorebooks, presets and more. Every command prints JSON.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from bunzai import __version__

        typer.echo(f"bunzai {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    studio: Annotated[
        Optional[str],
        typer.Option(
            "--studio",
            metavar="DIR",
            help="Studio folder (else BUNZAI_STUDIO, the nearest bunzai.toml upward, ~/.bunzai/studio).",
        ),
    ] = None,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
    table: Annotated[
        bool, typer.Option("--table", help="Print list-like answers as aligned columns (also BUNZAI_OUTPUT=table).")
    ] = False,
    nl: Annotated[bool, typer.Option("--nl", help="Print list-like answers as one JSON object per line.")] = False,
) -> None:
    ctx.obj = Globals(studio=studio)
    if table or nl:  # `bunzai.cli.entry` takes these out first; this serves the app run in-process
        from bunzai.cli.output import set_output_mode

        set_output_mode("table" if table else "nl")


for module in (studio_cmd, pieces_cmd, lifecycle_cmd, apply_cmd, crossing_cmd):
    module.register(app)
app.add_typer(draft_cmd.app, name="draft")
app.add_typer(graveyard_cmd.app, name="graveyard")
app.add_typer(folder_cmd.app, name="folder")
app.add_typer(cap_cmd.app, name="cap")
macro_cmd.register(app)
app.add_typer(macro_cmd.app, name="macro")
from bunzai.cli import regexlab_cmd  # noqa: E402 - appended so branches merge cleanly

regexlab_cmd.register(app)
app.add_typer(regexlab_cmd.app, name="regex-lab")
from bunzai.cli import docs_cmd  # noqa: E402

app.add_typer(docs_cmd.app, name="docs")
from bunzai.cli import render_cmd  # noqa: E402

render_cmd.register(app)
from bunzai.cli import promptbook_cmd  # noqa: E402

app.add_typer(promptbook_cmd.app, name="promptbook")
from bunzai.cli import watch_cmd  # noqa: E402

watch_cmd.register(app)
from bunzai.cli import mcp_cmd  # noqa: E402

mcp_cmd.register(app)
from bunzai.cli import art_cmd  # noqa: E402

art_cmd.register(app)
