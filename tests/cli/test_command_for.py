"""Only the subcommand being run is built into a click command; the whole app where that cannot be told."""

from __future__ import annotations

import pytest

from bunzai.cli.app import app, command_for


@pytest.mark.parametrize(
    ("args", "built"),
    [
        (["import", "card.png"], ["import"]),
        (["--studio", "S", "apply", "--yes"], ["apply"]),
        (["--studio=S", "draft", "show", "-"], ["draft"]),
        (["--version", "cap", "run"], ["cap"]),
        (["regex-lab", "try"], ["regex-lab"]),
    ],
)
def test_a_named_subcommand_is_the_only_one_built(args, built):
    assert sorted(command_for(args).commands) == built


@pytest.mark.parametrize("args", [[], ["--help"], ["lsit"], ["--bogus", "import"], ["--studio"]])
def test_the_whole_app_is_built_where_no_known_subcommand_is_named(args):
    everything = command_for(args).commands
    assert {"import", "apply", "draft", "cap", "list"} <= set(everything)
    assert len(everything) == len(app.registered_commands) + len(app.registered_groups)


def test_completion_builds_the_whole_app(monkeypatch):
    monkeypatch.setenv("_BUNZAI_COMPLETE", "complete_bash")
    assert "apply" in command_for(["import"]).commands
