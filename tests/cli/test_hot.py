"""The hot commands' fast path (no Typer) answers exactly as the Typer commands do."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.cli.entry import run
from bunzai.cli.hot import fast_command
from bunzai.store.studio import init_studio

TOKENS = (
    "read",
    "list",
    "search",
    "formats",
    "character/ada",
    "ada",
    "nobody",
    "ada lovelace",
    '"ada"',
    "ada*",
    "--outline",
    "--pointer",
    "-p",
    "/name",
    "/body",
    "--offset",
    "--limit",
    "5",
    "0",
    "-1",
    "007",
    "1x",
    "",
    "--kind",
    "-k",
    "character",
    "lorebook",
    "nokind",
    "--kind=character",
    "--limit=2",
    "--pointer=/name",
    "--studio",
    "--help",
    "-h",
    "--",
    "--version",
    "--outline=1",
    "-kcharacter",
)


def typer_run(args):
    from typer.main import get_command

    from bunzai.cli.app import app
    from bunzai.cli.entry import _usage_error
    from bunzai.cli.output import render_error
    from bunzai.errors import BunzaiError

    try:
        result = get_command(app).main(args=args, prog_name="bunzai", standalone_mode=False)
        return result if isinstance(result, int) else 0
    except BunzaiError as error:
        return render_error(error)
    except Exception as error:  # the same rendering as entry.run
        usage = _usage_error(error)
        if usage is None:
            raise
        return render_error(usage)


@pytest.fixture
def studio(tmp_path, monkeypatch):
    studio, _ = init_studio(tmp_path / "studio")
    piece = {"kind": "character", "id": "ada", "name": "Ada Lovelace", "body": {"description": "Wrote a program."}}
    (studio.root / "character" / "ada.json").write_text(json.dumps(piece))
    monkeypatch.setenv("BUNZAI_STUDIO", str(studio.root))
    monkeypatch.chdir(tmp_path)
    return studio


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=6))
def test_the_fast_path_answers_as_typer_does(studio, capsys, args):
    if fast_command(args) is None:
        return
    code = run(list(args))
    fast = capsys.readouterr()
    expected = typer_run(list(args))
    slow = capsys.readouterr()
    assert (code, fast.out, fast.err) == (expected, slow.out, slow.err)


@pytest.mark.parametrize(
    "args",
    [
        ["read", "ada"],
        ["read", "character/ada", "--pointer", "/name"],
        ["read", "ada", "--outline"],
        ["read", "ada", "-p", "/body", "--limit=3", "--offset", "2"],
        ["list"],
        ["list", "-k", "lorebook"],
        ["search", "ada"],
        ["search", "prog*", "--kind", "character", "--limit", "1"],
        ["formats"],
        ["--studio", "elsewhere", "list"],
        ["list", "--kind", "nokind"],
        ["search", "x", "--limit", "0"],
    ],
)
def test_plain_forms_take_the_fast_path(studio, capsys, args):
    assert fast_command(args) is not None
    code = run(list(args))
    fast = capsys.readouterr()
    assert (code, fast.out, fast.err) == (typer_run(list(args)), *capsys.readouterr()[:2])


@pytest.mark.parametrize(
    "args",
    [
        ["read"],
        ["read", "a", "b"],
        ["read", "ada", "--help"],
        ["list", "--kind"],
        ["list", "-k", "x", "-k", "y"],
        ["search", "-x"],
        ["read", "ada", "--offset", "-1"],
        ["read", "ada", "--offset", "07"],
        ["--help", "list"],
        ["list", "--", "x"],
        ["read", "ada", "--outline=yes"],
        ["draft", "list"],
        ["list", "--studio", "x"],
    ],
)
def test_other_forms_are_left_to_typer(args):
    assert fast_command(args) is None
