"""The mistakes a new user makes are answered well: a did-you-mean in the hint, and exit 2
for a mistyped command or kind (issue 16's list, one row each)."""

from __future__ import annotations

import json

import pytest

from bunzai.cli.entry import run

SERAPHINA = json.dumps({"name": "Seraphina", "description": "A guardian of the forest."})

# (arguments, exit code, error code, a suggestion the hint must name)
MISTAKES = [
    (["read", "sera"], 1, "not_found", "character/seraphina"),
    (["read", "character/seraphin"], 1, "not_found", "character/seraphina"),
    (["create", "charcter", "--input", "{}"], 2, "unknown_kind", "character"),
    (["list", "--kind", "characters"], 2, "unknown_kind", "character"),
    (["cap", "lst"], 2, "usage", "browse"),
    (["cap", "chek"], 2, "usage", "check"),
    (["lsit"], 2, "usage", "list"),
    (["draft", "shwo"], 2, "usage", "show"),
    (["export", "seraphina", "--to", "sillytavern.png"], 1, "unknown_format", "sillytavern.card.png"),
    (["export", "seraphina", "--to", "st.card.png"], 1, "unknown_format", "sillytavern.card.png"),
    (["transfer", "seraphina", "--to", "tavern.card.json"], 1, "unknown_format", "sillytavern.card.json"),
    (["transfer", "seraphina", "--to", "sillytavern.card.json", "--engine", "risu"], 1, "not_found", "risuai"),
    (["macro-lookup", "char", "--engine", "sillytaven"], 1, "not_found", "sillytavern"),
]


@pytest.fixture
def shelf(bunzai):
    draft = bunzai("create", "character", "--input", SERAPHINA, check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    return bunzai


@pytest.mark.parametrize(("args", "exit_code", "code", "meant"), MISTAKES, ids=[" ".join(row[0]) for row in MISTAKES])
def test_a_mistake_gets_a_suggestion(shelf, args, exit_code, code, meant):
    answer = shelf(*args)
    assert answer.code == exit_code, answer.stderr
    error = answer.json["error"]
    assert error["code"] == code
    assert error["hint"].startswith("did you mean ") and meant in error["hint"]
    assert meant in error["details"]["suggestions"]
    assert meant in answer.stderr  # the one human line carries the hint too


def test_no_suggestion_when_nothing_is_close(shelf):
    error = shelf("read", "zzzzzz").json["error"]
    assert error["hint"] == "see `bunzai list`" and "details" not in error


def test_a_search_word_is_still_a_search(shelf):
    found = shelf("cap", "rename")
    assert found.code == 0 and found.json["items"]


@pytest.mark.parametrize(
    "args", [["read", "sera"], ["list", "--kind", "characters"], ["search", "x", "--kind", "lorebok"]]
)
def test_the_fast_path_and_typer_agree(tmp_path, monkeypatch, capsys, args):
    from bunzai.store.studio import init_studio

    studio, _ = init_studio(tmp_path / "studio")
    (studio.root / "character" / "seraphina.json").write_text(
        json.dumps({"kind": "character", "id": "seraphina", "name": "S"})
    )
    monkeypatch.setenv("BUNZAI_STUDIO", str(studio.root))
    fast_code = run(list(args))
    fast = capsys.readouterr()
    monkeypatch.setattr("bunzai.cli.hot.fast_command", lambda args: None)
    slow_code = run(list(args))
    slow = capsys.readouterr()
    assert (fast_code, fast.out, fast.err) == (slow_code, slow.out, slow.err)
    assert "did you mean" in fast.out


def test_studio_after_the_command(shelf):
    studio = str(shelf.studio)
    shelf.studio = None  # no BUNZAI_STUDIO: the option alone chooses
    for args in (
        ["list", "--studio", studio],
        ["list", f"--studio={studio}"],
        ["read", "seraphina", "--studio", studio],
        ["list", "--kind", "character", "--studio", studio],
    ):
        answer = shelf(*args)
        assert answer.code == 0, answer.stdout
        assert "default studio" not in answer.stderr
    assert shelf("list", "--kind", "character", "--studio", studio).json["items"][0]["id"] == "seraphina"
    twice = shelf("--studio", studio, "list", "--studio", studio)
    assert twice.code == 2 and twice.json["error"]["code"] == "usage"


@pytest.mark.parametrize(
    "args",
    [["list"], ["read", "x"], ["search", "x"], ["draft", "list"], ["graveyard", "list"], ["changes"], ["doctor"]],
)
def test_a_read_only_command_never_creates_the_default_studio(bare_bunzai, args):
    answer = bare_bunzai(*args)
    assert answer.code == 1 and answer.json["error"]["code"] == "studio_missing"
    assert "bunzai init" in answer.json["error"]["hint"]
    assert not (bare_bunzai.home / ".bunzai").exists()


def test_the_default_studio_is_named_on_stderr(bare_bunzai):
    draft = bare_bunzai("create", "character", "--input", SERAPHINA, check=True).stdout
    applied = bare_bunzai("apply", "--yes", input=draft)
    assert applied.code == 0  # a write creates the default studio on first use, as before
    default = bare_bunzai.home / ".bunzai" / "studio"
    assert applied.stderr.count(f"using the default studio {default}") == 1
    listed = bare_bunzai("list")
    assert listed.json["items"][0]["id"] == "seraphina"
    assert listed.stderr.count("using the default studio") == 1
