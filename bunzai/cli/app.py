"""The Typer application: global options, then one module per command group."""

from __future__ import annotations

import copy
import os
from typing import Annotated

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
        str | None,
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


def command_for(args: list[str]):
    """The click command that runs `args`, with only the subcommand they name built: turning a
    Typer command into a click one inspects its whole signature, and building all of them
    costs more than the rest of a command's start-up. The whole app is built when no
    subcommand is named, for one it lacks (its usage error lists the commands spelled alike)
    and when the shell asks for completions."""
    from typer.main import get_command

    name = _subcommand(args)
    if name is None or os.environ.get("_BUNZAI_COMPLETE"):
        return get_command(app)
    commands = [info for info in app.registered_commands if _command_name(info) == name]
    groups = [info for info in app.registered_groups if info.name == name]
    if not commands and not groups:
        return get_command(app)
    one = copy.copy(app)
    one.registered_commands, one.registered_groups = commands, groups
    return get_command(one)


def _command_name(info) -> str:
    """A registered command's name, as Typer derives it (`import_` is registered by name)."""
    return info.name or info.callback.__name__.lower().replace("_", "-")


def _subcommand(args: list[str]) -> str | None:
    """The subcommand `args` name after the global options, or None (options only, or one
    this app does not know, which the whole app answers)."""
    index = 0
    while index < len(args):
        token = args[index]
        if token == "--studio":
            index += 2
        elif token.startswith("--studio=") or token in ("--version", "--help", "-h"):
            index += 1
        elif token.startswith("-"):
            return None
        else:
            return token
    return None
