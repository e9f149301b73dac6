"""The hot commands answer without importing pydantic or Typer (docs/architecture.md, "Start-up cost"),
and `read`, `list` and `search` without the standard library's costlier modules they do without.

Each command runs in a fresh interpreter through `bunzai.cli.entry.run`, as the console script
runs it, and then names the modules of those two packages it holds: none may be there. A module
on these paths that moved such an import to its top would fail here, not only in the benchmark.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = """
import json, sys
from bunzai.cli.entry import run
code = run(json.loads(sys.argv[1]))
heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'typer'))
sys.stderr.write('\\nheavy: ' + json.dumps(heavy) + '\\n')
sys.exit(code)
"""


def run_counting_heavy(bunzai, args: list[str]) -> tuple[str, list[str]]:
    """(what the command printed, the pydantic and typer modules it imported); it must succeed."""
    proc = subprocess.run(
        [sys.executable, "-c", PROGRAM, json.dumps(args)],
        capture_output=True,
        text=True,
        env=bunzai.env(),
        cwd=bunzai.cwd,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, json.loads(proc.stderr.rsplit("heavy: ", 1)[1])


def heavy_modules(bunzai, args: list[str]) -> tuple[dict, list[str]]:
    """(the command's JSON answer, the pydantic and typer modules it imported)."""
    printed, heavy = run_counting_heavy(bunzai, args)
    return json.loads(printed), heavy


@pytest.fixture
def shelf(bunzai):
    """A studio holding one character, Ada, and a current index of it."""
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    bunzai("list", check=True)
    return bunzai


@pytest.mark.parametrize(
    "args",
    [
        ["read", "character/ada"],
        ["read", "character/ada", "--outline"],
        ["list"],
        ["list", "--links-to", "lorebook/eldoria"],
        ["search", "ada"],
        ["formats"],
    ],
    ids=" ".join,
)
def test_a_hot_command_imports_neither_pydantic_nor_typer(shelf, args):
    answer, heavy = heavy_modules(shelf, args)
    assert answer, answer
    assert heavy == []


@pytest.mark.parametrize("args", [["list"], ["search", "ada"]], ids=" ".join)
def test_list_and_search_building_the_index_import_neither(shelf, args):
    (shelf.studio / ".bunzai" / "index.sqlite").unlink()
    answer, heavy = heavy_modules(shelf, args)
    assert answer["count"] == 1
    assert heavy == []


@pytest.mark.parametrize(
    "args",
    [
        ["apply", "--help"],
        ["import", "--help"],
        ["changes"],
        ["graveyard", "list"],
        ["folder", "list"],
        ["docs", "search", "studio"],
    ],
    ids=" ".join,
)
def test_commands_that_need_no_model_parse_their_arguments_without_pydantic(shelf, args):
    """Through Typer, which these commands use, but not through pydantic: Typer 0.29 coerces
    every parameter with a pydantic TypeAdapter, doubling such a command's start-up, which is
    why pyproject.toml keeps Typer below 0.29."""
    printed, heavy = run_counting_heavy(shelf, args)
    assert printed.strip(), args
    assert "typer" in heavy  # (these are not hot commands: the check is of Typer's own parsing)
    assert [module for module in heavy if module.split(".")[0] == "pydantic"] == []


LIGHT = """
import json, sys
from bunzai.cli.entry import run
code = run(json.loads(sys.argv[1]))
sys.stderr.write('\\nheavy: ' + json.dumps(sorted(set(sys.argv[2:]) & set(sys.modules))) + '\\n')
sys.exit(code)
"""

# Modules that cost milliseconds to import and that these commands do without (docs/architecture.md).
NOT_FOR = {
    "read": ("typing", "dataclasses", "inspect", "pathlib", "pydantic", "typer", "secrets", "datetime", "hashlib"),
    "list": ("typing", "dataclasses", "inspect", "pathlib", "pydantic", "typer", "sqlite3", "datetime", "importlib"),
}
NOT_FOR["search"] = NOT_FOR["list"]


def light_run(bunzai, args: list[str]) -> dict:
    """Run a command without `site` (`python -S`, bunzai found by PYTHONPATH), as nothing else
    is imported then: in the development environment the editable finder imports pathlib and
    re at start-up, and an installed bunzai pays for what it imports itself. Asserts it
    imported none of `NOT_FOR` its command; returns its answer."""
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, "-S", "-c", LIGHT, json.dumps(args), *NOT_FOR[args[0]]],
        capture_output=True,
        text=True,
        env={**bunzai.env(), "PYTHONPATH": str(root)},
        cwd=bunzai.cwd,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stderr.rsplit("heavy: ", 1)[1]) == [], args
    return json.loads(proc.stdout)


def test_read_list_and_search_keep_to_light_modules(shelf):
    import time

    # A tick of the file system's clock after the last write, the index trusts what it reads:
    # this `list` records the settled listing, and the commands below read no piece.
    time.sleep(0.05)
    shelf("list", check=True)
    for args in (
        ["read", "character/ada"],
        ["read", "ada", "--outline"],
        ["list"],
        ["search", "ada"],
        ["search", '"ada"'],
        ["search", "ad*"],
    ):
        answer = light_run(shelf, args)
        assert answer.get("count", 1) == 1 and answer.get("id", "ada") == "ada", args


def test_list_and_search_reading_pieces_into_the_index_keep_to_light_modules(shelf):
    piece = shelf.studio / "character" / "ada.json"
    piece.write_text(piece.read_text(encoding="utf-8").replace('"Ada"', '"Adelaide"'), encoding="utf-8")
    assert light_run(shelf, ["search", "adelaide"])["count"] == 1  # the edited piece read again
    (shelf.studio / ".bunzai" / "index.sqlite").unlink()
    assert light_run(shelf, ["list"])["items"][0]["name"] == "Adelaide"  # the index built from the files
