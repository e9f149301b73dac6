"""Every list-like answer has one shape: `{"count": N, "items": [...]}` plus keys of its own.

The table below runs each listing command against a small studio; the last test walks the
real Typer app, so a command registered tomorrow must be put in the table or named as
answering one object before the suite passes again.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import typer.main

from bunzai.cli.app import app
from testkit import bunzai_executable, v2_card_png

# command -> the argument lists it is run with (each answer must be list-like and non-empty).
# "{folder}" stands for a folder granted to the studio, "{spare}" for one granted just before.
LISTS: dict[str, list[list[str]]] = {
    "list": [[], ["--kind", "character"]],
    "search": [["lighthouse"]],
    "formats": [[]],
    "changes": [["--since", "0"]],
    "macro-lookup": [["random"]],
    "block-lookup": [[]],
    "draft list": [[]],
    "graveyard list": [[]],
    "folder grant": [["{folder}"]],
    "folder revoke": [["{spare}"]],
    "folder list": [[]],
    "folder search": [["ada png"]],
    "cap find": [["rename", "character"]],
    "cap lookup": [["rename", "character"], ["content/character"]],
    "cap browse": [[], ["content"], ["content/character"], ["content/character/identity"]],
    "macro engines": [[]],
    "regex-lab recipes": [[]],
    "docs browse": [["commands", "--limit", "3"]],
    "docs search": [["export", "containment"]],
    "docs query": [["--action", "search", "--query", "stale revision"], ["--action", "browse", "--page", "commands"]],
}

# Commands that answer one thing (which may hold a list among its facts), or stream lines.
# (`docs query` and `cap lookup` answer as the verb they stand for: listed above in their list forms.)
ONE_OBJECT = {
    "init",
    "doctor",
    "create",
    "read",
    "duplicate",
    "schema",
    "delete",
    "bury",
    "apply",
    "import",
    "transfer",
    "export",
    "convert",
    "regex-from-drawing",
    "html-will-draw",
    "render",
    "preset-verify",
    "wait",
    "revert",
    "mcp",
    "art",
    "draft show",
    "draft validate",
    "draft discard",
    "graveyard restore",
    "folder read",
    "folder import",
    "cap describe",
    "cap run",
    "cap check",
    "macro translate",
    "regex-lab try",
    "regex-lab race",
    "regex-lab explain",
    "regex-lab lint",
    "regex-lab from-examples",
    "docs outline",
    "docs read",
    "docs index",
    "docs summaries scaffold",
    "docs summaries stamp",
    "docs summaries review",
    "docs summaries check",
    "promptbook try-line",
    "promptbook rehearse",
}


def _commands(group=None, path: tuple[str, ...] = ()):
    group = group or typer.main.get_command(app)
    for name in group.list_commands(None):
        command = group.get_command(None, name)
        if hasattr(command, "list_commands"):
            yield from _commands(command, path + (name,))
        else:
            yield " ".join(path + (name,))


class _Shelf:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("BUNZAI_")}
        self.env.update(HOME=str(root), BUNZAI_STUDIO=str(root / "studio"), BUNZAI_SESSION="shape")

    def __call__(self, *args: str, input: bytes | None = None) -> str:
        proc = subprocess.run(
            bunzai_executable() + list(args),
            input=input,
            capture_output=True,
            env=self.env,
            cwd=self.root,
            start_new_session=True,
            timeout=120,
        )
        said = f"{proc.stdout!r} {proc.stderr!r}"
        assert proc.returncode == 0, f"bunzai {' '.join(args)} exited {proc.returncode}: {said}"
        return proc.stdout.decode("utf-8")


@pytest.fixture(scope="module")
def shelf(tmp_path_factory) -> _Shelf:
    """A studio with two characters (one buried), a saved draft and two granted folders."""
    run = _Shelf(tmp_path_factory.mktemp("shape"))
    run("init", str(run.root / "studio"))
    cards = run.root / "cards"
    cards.mkdir()
    for name in ("Ada", "Bea"):
        (cards / f"{name}.png").write_bytes(v2_card_png(name))
        run("apply", "--yes", input=run("import", str(cards / f"{name}.png")).encode("utf-8"))
    run("bury", "character/bea")
    run(
        "cap",
        "run",
        "character.identity.update",
        "character/ada",
        "--input",
        '{"nickname": "Addie"}',
        "--save",
        "--name",
        "ada-nick",
    )
    run("folder", "grant", str(cards))
    (run.root / "spare").mkdir()
    return run


def _rows() -> list:
    return [
        pytest.param(name, args, id=f"{name} {' '.join(args)}".strip()) for name, runs in LISTS.items() for args in runs
    ]


@pytest.mark.parametrize("name,args", _rows())
def test_a_list_answer_is_count_and_items(shelf: _Shelf, name: str, args: list[str]) -> None:
    if name == "folder revoke":
        shelf("folder", "grant", str(shelf.root / "spare"))
    filled = [arg.format(folder=shelf.root / "cards", spare=shelf.root / "spare") for arg in args]
    doc = json.loads(shelf(*name.split(), *filled))
    assert isinstance(doc, dict) and isinstance(doc.get("items"), list), doc
    assert doc["count"] == len(doc["items"]) and doc["items"], doc
    if all(isinstance(item, dict) for item in doc["items"]):  # --nl prints the same items, one a line
        assert len(shelf("--nl", *name.split(), *filled).splitlines()) == doc["count"]


def test_every_command_is_a_list_or_answers_one_object() -> None:
    registered = set(_commands())
    assert not set(LISTS) & ONE_OBJECT
    assert registered - set(LISTS) - ONE_OBJECT == set(), "put a new command in LISTS or ONE_OBJECT"
    assert (set(LISTS) | ONE_OBJECT) - registered == set(), "a command named here is gone"
