"""One folder of a granted library that cannot be listed (another user's, a locked mount, a
grant itself) is passed over and named under `unreadable`, at the shell and over MCP: the rest
is still searched. Faults are injected (the tests run as root)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bunzai import files
from bunzai.cli.entry import run
from bunzai.errors import BunzaiError
from bunzai.folders import grant, search
from bunzai.store.studio import init_studio
from bunzai.tools import folder_search
from bunzai.tools.contract import Context


def granted_library(tmp_path):
    """A studio granted a SillyTavern-like folder: characters/ and worlds/, one file in each."""
    studio, _ = init_studio(tmp_path / "studio")
    library = tmp_path / "ST"
    for sub in ("characters", "worlds"):
        (library / sub).mkdir(parents=True)
        (library / sub / f"ada-{sub}.json").write_text("{}")
    grant(studio, library)
    return studio, library


def _library(tmp_path, monkeypatch, locked: str):
    studio, library = granted_library(tmp_path)
    real_scandir = os.scandir

    def scandir(path):
        if os.path.basename(os.fspath(path)) == locked:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(files.os, "scandir", scandir)
    return studio, library


def _other_grant(tmp_path, studio) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "ada-other.json").write_text("{}")
    grant(studio, other)


def _failing_stat(monkeypatch, fails, error: OSError) -> None:
    """Path.stat raises `error` for the paths `fails` picks."""
    real_stat = Path.stat

    def stat(self, *args, **kwargs):
        if fails(self):
            raise error
        return real_stat(self, *args, **kwargs)

    monkeypatch.setattr(Path, "stat", stat)


def test_a_folder_that_cannot_be_listed_is_named_and_the_rest_searched(tmp_path, monkeypatch, capsys) -> None:
    studio, library = _library(tmp_path, monkeypatch, "worlds")
    answer = search(studio, "ada", 10)
    assert [hit["relative"] for hit in answer["items"]] == ["characters/ada-characters.json"]
    assert answer["unreadable"] == [str(library / "worlds")]
    assert run(["--studio", str(studio.root), "folder", "search", "ada"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["count"] == 1 and answer["unreadable"] == [str(library / "worlds")]
    over_mcp = folder_search.run(Context(studio=studio), folder_search.Args(query="ada"))
    assert over_mcp["count"] == 1 and over_mcp["unreadable"].value == [str(library / "worlds")]


def test_a_grant_that_cannot_be_listed_is_named_and_the_other_grants_searched(tmp_path, monkeypatch) -> None:
    studio, library = _library(tmp_path, monkeypatch, "ST")
    _other_grant(tmp_path, studio)
    answer = search(studio, "ada", 10)
    assert [hit["relative"] for hit in answer["items"]] == ["ada-other.json"]
    assert answer["unreadable"] == [str(library)]
    with pytest.raises(BunzaiError) as caught:  # a folder's own listing (folder read DIR) is refused
        list(files.walk_files(library))
    assert caught.value.code == "invalid_input" and str(library) in caught.value.message


def test_a_grant_that_cannot_be_reached_is_named_and_the_other_grants_searched(tmp_path, monkeypatch) -> None:
    # stat fails with EACCES or ENOTCONN (a home one cannot enter, a dead network mount)
    studio, library = _library(tmp_path, monkeypatch, "none")
    _other_grant(tmp_path, studio)
    _failing_stat(monkeypatch, lambda path: path == library, OSError(107, "Transport endpoint is not connected"))
    answer = search(studio, "ada", 10)
    assert [hit["relative"] for hit in answer["items"]] == ["ada-other.json"]
    assert answer["unreadable"] == [str(library)]


def test_a_folder_listed_but_not_entered_is_named_once(tmp_path, monkeypatch) -> None:
    # the walk entered the folder, then sizing its files failed (a failing disk or mount)
    studio, library = _library(tmp_path, monkeypatch, "none")
    (library / "worlds" / "ada-more.json").write_text("{}")
    _failing_stat(monkeypatch, lambda path: path.parent == library / "worlds", PermissionError(13, "Permission denied"))
    answer = search(studio, "ada", 10)
    assert [hit["relative"] for hit in answer["items"]] == ["characters/ada-characters.json"]
    assert answer["unreadable"] == [str(library / "worlds")]
