"""The kept answers of `bunzai formats`, `bunzai --help` and the hot commands' `--help`
(bunzai/generated/hot.json)."""

from __future__ import annotations

import json

import pytest

from bunzai.cli import hot_tables
from bunzai.cli.entry import run
from bunzai.cli.hot import fast_command


def test_the_kept_table_is_current() -> None:
    assert hot_tables.main(["--check"]) == 0, "run `make hot` to refresh bunzai/generated/hot.json"


def test_the_kept_answers_are_what_the_slow_path_builds() -> None:
    assert hot_tables.cached("formats") == hot_tables.build_formats()
    assert hot_tables.cached("help") == hot_tables.build_help()
    assert hot_tables.cached("command_help") == {name: hot_tables.build_help(name) for name in hot_tables.HOT_COMMANDS}


def test_formats_prints_the_registry(capsys) -> None:
    assert run(["formats"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == {"count": len(hot_tables.build_formats()), "items": hot_tables.build_formats()}


@pytest.mark.parametrize("answer", ["formats", "help"])
def test_a_table_built_from_other_sources_is_not_used(tmp_path, monkeypatch, answer) -> None:
    table = json.loads(open(hot_tables.TABLE, encoding="utf-8").read())
    table[answer]["value"] = "stale" if answer == "help" else [{"format": "stale"}]
    table[answer]["digest"] = "00000000-1"
    stale = tmp_path / "hot.json"
    stale.write_text(json.dumps(table))
    monkeypatch.setattr(hot_tables, "TABLE", str(stale))
    assert hot_tables.cached(answer) is None
    table[answer]["digest"] = hot_tables.sources_digest(hot_tables.SOURCES[answer])
    stale.write_text(json.dumps(table))
    assert hot_tables.cached(answer) == table[answer]["value"]  # the digest alone decides


def test_an_edited_source_changes_the_digest(tmp_path, monkeypatch) -> None:
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "a.py").write_text("x = 1\n")
    monkeypatch.setattr(hot_tables, "_PACKAGE", str(tmp_path))
    before = hot_tables.sources_digest("cli")
    (tmp_path / "cli" / "a.py").write_text("x = 2\n")
    assert hot_tables.sources_digest("cli") != before


@pytest.mark.parametrize("args", [["--help"], ["-h"]])
def test_help_on_a_wide_terminal_is_kept_and_same_as_typer(monkeypatch, capsys, args) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    assert fast_command(args) is not None
    assert run(args) == 0
    assert capsys.readouterr().out == hot_tables.build_help()


def test_help_on_a_narrow_terminal_is_left_to_typer(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    assert fast_command(["--help"]) is None
    assert fast_command(["read", "--help"]) is None


@pytest.mark.parametrize("name", ["read", "list", "search", "formats"])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_a_hot_commands_help_is_kept_and_same_as_typer(monkeypatch, capsys, name, flag) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    assert fast_command([name, flag]) is not None
    assert run([name, flag]) == 0
    kept = capsys.readouterr().out
    assert kept.startswith(f"Usage: bunzai {name} ")
    monkeypatch.setattr(hot_tables, "TABLE", "/nonexistent/hot.json")  # the same through Typer
    assert fast_command([name, flag]) is None
    assert run([name, flag]) == 0
    assert capsys.readouterr().out == kept


def test_a_stale_command_help_table_is_not_used(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    table = json.loads(open(hot_tables.TABLE, encoding="utf-8").read())
    table["command_help"]["digest"] = "00000000-1"
    stale = tmp_path / "hot.json"
    stale.write_text(json.dumps(table))
    monkeypatch.setattr(hot_tables, "TABLE", str(stale))
    assert fast_command(["search", "--help"]) is None
