"""The hot commands answer without importing pydantic or Typer (docs/architecture.md, "Start-up cost"),
and `list` and `search` on a current index without `typing` (3 ms of a 0.1 s answer).

Each command runs in a fresh interpreter through `bunzai.cli.entry.run`, as the console script
runs it, and then names the modules of those two packages it holds: none may be there. A module
on these paths that moved such an import to its top would fail here, not only in the benchmark.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROGRAM = """
import json, sys
before = set(sys.modules)
from bunzai.cli.entry import run
code = run(json.loads(sys.argv[1]))
heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'typer'))
if len(sys.argv) > 2:
    heavy += sorted(m for m in set(sys.modules) - before if m == 'typing')
sys.stderr.write('\\nheavy: ' + json.dumps(heavy) + '\\n')
sys.exit(code)
"""


def heavy_modules(bunzai, args: list[str], typing: bool = False) -> tuple[dict, list[str]]:
    """(the command's JSON answer, the pydantic and typer modules it holds, and with `typing`,
    `typing` where it imported that)."""
    proc = subprocess.run(
        [sys.executable, "-c", PROGRAM, json.dumps(args), *(["typing"] if typing else [])],
        capture_output=True,
        text=True,
        env=bunzai.env(),
        cwd=bunzai.cwd,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    heavy = json.loads(proc.stderr.rsplit("heavy: ", 1)[1])
    return json.loads(proc.stdout), heavy


@pytest.fixture
def shelf(bunzai):
    """A studio holding one character, Ada, and a current index of it."""
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    bunzai("list", check=True)
    return bunzai


@pytest.mark.parametrize(
    "args",
    [["read", "character/ada"], ["read", "character/ada", "--outline"], ["list"], ["search", "ada"], ["formats"]],
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


def test_list_and_search_on_a_settled_index_import_no_typing(shelf):
    import time

    from bunzai import limits

    # Past the racy window, the index trusts its listing and reads no piece (a piece read
    # imports the store, which imports typing); `list` records that settled listing.
    time.sleep(limits.INDEX_RACY_SECONDS + 0.5)
    shelf("list", check=True)
    for args in (["list"], ["search", "ada"], ["search", '"ada"'], ["search", "ad*"]):
        answer, heavy = heavy_modules(shelf, args, typing=True)
        assert answer["count"] == 1, args
        assert heavy == [], args
