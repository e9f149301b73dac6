"""One entry of a folder that cannot be looked at (a file system that reports no entry types looks
at each one: a bad inode, a link loop) does not refuse the folder a walk lists (`list_folder`):
the entry is passed over and named in the import's stream, and the rest is imported. A folder
listed but not entered is still refused as a whole, and a capability's folder of media refuses
the entry by name. Faults are injected (the tests run as root)."""

from __future__ import annotations

import errno
import json
import os

import pytest
from testkit import v2_card_png

from bunzai import files
from bunzai.capabilities.common.media_refs import folder_files
from bunzai.changes.imports import drafts_from_path
from bunzai.cli.entry import run
from bunzai.errors import BunzaiError


class _Untyped:
    """A DirEntry on a file system that reports no entry types: every question looks at the entry,
    and for the bad one that fails with `error` (None: the entry answers as it is)."""

    def __init__(self, entry: os.DirEntry, error: OSError | None) -> None:
        self.name, self.path, self._entry, self._error = entry.name, entry.path, entry, error

    def _look(self) -> None:
        if self._error is not None:
            raise self._error

    def stat(self, *, follow_symlinks: bool = True):
        self._look()
        return self._entry.stat(follow_symlinks=follow_symlinks)

    def is_symlink(self) -> bool:
        self._look()
        return self._entry.is_symlink()

    def is_dir(self, *, follow_symlinks: bool = True) -> bool:
        self._look()
        return self._entry.is_dir(follow_symlinks=follow_symlinks)

    def is_file(self, *, follow_symlinks: bool = True) -> bool:
        self._look()
        return self._entry.is_file(follow_symlinks=follow_symlinks)


class _Listing(list):
    def __enter__(self):
        return iter(self)

    def __exit__(self, *exc) -> None:
        return None


def _failing(monkeypatch, bad: dict[str, int]) -> None:
    """Listings where the entries named in `bad` (name -> errno) cannot be looked at."""
    real_scandir = os.scandir

    def scandir(path):
        with real_scandir(path) as listing:
            entries = list(listing)
        return _Listing(
            _Untyped(
                entry, OSError(bad[entry.name], os.strerror(bad[entry.name]), entry.path) if entry.name in bad else None
            )
            for entry in entries
        )

    monkeypatch.setattr(files.os, "scandir", scandir)


def _cards(folder, *names: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for seed, name in enumerate(names):
        (folder / f"{name}.png").write_bytes(v2_card_png(name, seed=seed))


@pytest.mark.parametrize(("number", "code"), [(errno.ELOOP, "invalid_input"), (errno.EIO, "io_error")])
def test_import_of_a_folder_passes_over_an_entry_that_cannot_be_looked_at(
    tmp_path, monkeypatch, capsys, number, code
) -> None:
    cards = tmp_path / "cards"
    _cards(cards, "Ada", "Bad", "Mira")  # the bad entry neither first nor last
    _failing(monkeypatch, {"Bad.png": number})
    assert run(["import", str(cards)]) == 1  # exit 1: the entry is told, as a file that cannot be read is
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(line["target"]["id"] for line in lines if "target" in line) == ["ada", "mira"]
    [error] = [line["error"] for line in lines if "error" in line]
    assert error["code"] == code and error["details"]["path"] == str(cards / "Bad.png") and error["hint"]
    assert str(cards / "Bad.png") in error["message"]


def test_a_library_passes_over_an_entry_of_a_shelf_and_of_a_sprite_folder(tmp_path, monkeypatch) -> None:
    root = tmp_path / "default-user"
    _cards(root / "characters", "Ada", "Bad", "Mira")
    (root / "worlds").mkdir()
    sprites = root / "characters" / "Ada"
    sprites.mkdir()
    for name in ("joy.png", "sadness.png", "anger.png"):
        (sprites / name).write_bytes(v2_card_png(name, seed=len(name)))
    _failing(monkeypatch, {"Bad.png": errno.EIO, "anger.png": errno.EIO})
    results = {path: result for path, result in drafts_from_path(root)}
    for bad in (root / "characters" / "Bad.png", sprites / "anger.png"):
        assert isinstance(results[bad], BunzaiError) and results[bad].code == "io_error", bad
    drafted = {path.name for path, result in results.items() if isinstance(result, list) and result}
    assert {"Ada.png", "Mira.png"} <= drafted


def test_an_entry_gone_since_the_listing_is_passed_over_in_silence(tmp_path, monkeypatch) -> None:
    cards = tmp_path / "cards"
    _cards(cards, "Ada", "Gone")
    _failing(monkeypatch, {"Gone.png": errno.ENOENT})
    assert files.list_folder(cards) == ([cards / "Ada.png"], [])


def test_a_folder_listed_but_not_entered_is_refused_once_as_a_whole(tmp_path, monkeypatch) -> None:
    # read without execute: every entry's lstat fails with EACCES; the folder is told once, not each entry
    cards = tmp_path / "cards"
    _cards(cards, "Ada", "Mira")
    _failing(monkeypatch, {"Ada.png": errno.EACCES, "Mira.png": errno.EACCES})
    unreadable: list = []
    with pytest.raises(BunzaiError) as caught:
        files.list_folder(cards, unreadable)
    assert caught.value.message == f"cannot enter {cards}: Permission denied" and unreadable == []
    results = list(drafts_from_path(cards))
    assert [(path, result.code) for path, result in results] == [(cards, "invalid_input")]


def test_a_folder_of_media_refuses_the_entry_it_cannot_look_at(tmp_path, monkeypatch) -> None:
    # a pack made without it would be short a sprite: refused, naming the entry, not the folder
    faces = tmp_path / "faces"
    faces.mkdir()
    for name in ("joy.png", "sad.png"):
        (faces / name).write_bytes(v2_card_png(name))
    _failing(monkeypatch, {"sad.png": errno.EIO})
    with pytest.raises(BunzaiError) as caught:
        folder_files(str(faces), "from_folder")
    assert caught.value.code == "io_error" and str(faces / "sad.png") in caught.value.message
