"""A command group's `--help` names every subcommand it has, so its text cannot fall behind a new verb.

The group's own text is what `bunzai GROUP --help` shows above the list; a reader who stops
there (or an agent that reads only the description) learns every verb from it.
"""

from __future__ import annotations

import re

import typer.main

from bunzai.cli.app import app


def _groups(group=None, path=()):
    group = group or typer.main.get_command(app)
    for name in group.list_commands(None):
        command = group.get_command(None, name)
        if hasattr(command, "list_commands"):
            yield " ".join(path + (name,)), command
            yield from _groups(command, path + (name,))


def test_every_group_help_names_each_of_its_visible_subcommands() -> None:
    missing = []
    for name, group in _groups():
        text = group.help or ""
        for verb in group.list_commands(None):
            if group.get_command(None, verb).hidden:
                continue
            if not re.search(rf"(?<![\w-]){re.escape(verb)}(?![\w-])", text):
                missing.append(f"bunzai {name} --help does not name {verb!r}")
    assert missing == []


def test_the_walk_reaches_the_groups() -> None:
    names = {name for name, _ in _groups()}
    assert {"cap", "docs", "docs summaries", "regex-lab", "promptbook", "draft"} <= names
