"""Faults a folder search meets inside a grant, and what it answers: a folder whose entries cannot
be looked at (listed but not entered, on a file system with or without entry types) is named under
`unreadable` whether or not a file in it matches; a grant past WALK_MAX_ENTRIES is named under
`unfinished` and the other grants are searched. Faults are injected (the tests run as root)."""

from __future__ import annotations

import errno
import json
import os

import pytest

from bunzai import files
from bunzai.cli.entry import run
from bunzai.errors import BunzaiError
from bunzai.folders import grant
from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.tools.contract import Context
from test_folder_unreadable import granted_library


class _Unentered:
    """A DirEntry of a folder listed but not entered (read without execute): every lstat fails.
    `typed`: the file system reported the entry's type with its name (ext4, btrfs), so is_dir and
    is_file answer without an lstat; untyped (some network and FUSE file systems, DT_UNKNOWN) they
    need one, and raise."""

    def __init__(self, entry: os.DirEntry, typed: bool) -> None:
        self.name, self.path, self._entry, self._typed = entry.name, entry.path, entry, typed

    def _typed_or_fail(self) -> None:
        if not self._typed:
            raise PermissionError(13, "Permission denied", self.path)

    def is_symlink(self) -> bool:
        self._typed_or_fail()
        return self._entry.is_symlink()

    def is_dir(self, *, follow_symlinks: bool = True) -> bool:
        self._typed_or_fail()
        return self._entry.is_dir(follow_symlinks=follow_symlinks)

    def is_file(self, *, follow_symlinks: bool = True) -> bool:
        self._typed_or_fail()
        return self._entry.is_file(follow_symlinks=follow_symlinks)

    def stat(self, *, follow_symlinks: bool = True):
        raise PermissionError(13, "Permission denied", self.path)


_library = granted_library


def _unentered(monkeypatch, folder, *, typed: bool) -> None:
    real_scandir = os.scandir

    def scandir(path):
        listing = list(real_scandir(path))
        if os.fspath(path) == str(folder):
            return iter([_Unentered(entry, typed) for entry in listing])
        return iter(listing)

    monkeypatch.setattr(files.os, "scandir", scandir)


def _search(studio, query: str, capsys) -> dict:
    assert run(["--studio", str(studio.root), "folder", "search", query]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_folder_of_untyped_entries_not_entered_is_named_not_the_end_of_the_search(
    tmp_path, monkeypatch, capsys
) -> None:
    # entry.is_dir() stats where the file system reports no types: that fails in a folder not entered
    studio, library = _library(tmp_path)
    _unentered(monkeypatch, library / "worlds", typed=False)
    answer = _search(studio, "ada", capsys)
    assert [hit["relative"] for hit in answer["items"]] == ["characters/ada-characters.json"]
    assert answer["unreadable"] == [str(library / "worlds")]


def test_a_folder_not_entered_is_named_when_none_of_its_files_match(tmp_path, monkeypatch, capsys) -> None:
    studio, library = _library(tmp_path)
    _unentered(monkeypatch, library / "worlds", typed=True)
    answer = _search(studio, "characters", capsys)  # no file of worlds/ matches: it is named all the same
    assert [hit["relative"] for hit in answer["items"]] == ["characters/ada-characters.json"]
    assert answer["unreadable"] == [str(library / "worlds")]
    with pytest.raises(BunzaiError) as caught:  # a walk that keeps no unreadable list refuses the folder
        list(files.walk_files(library / "worlds"))
    assert (caught.value.code, caught.value.message) == (
        "invalid_input",
        f"cannot enter {library / 'worlds'}: Permission denied",
    )


def test_a_grant_past_the_entry_limit_is_named_and_the_other_grants_searched(tmp_path, monkeypatch, capsys) -> None:
    studio, library = _library(tmp_path)
    for number in range(5):
        (library / "worlds" / f"ada-{number}.json").write_text("{}")
    other = tmp_path / "other"
    other.mkdir()
    (other / "ada-other.json").write_text("{}")
    grant(studio, other)
    monkeypatch.setattr(files, "WALK_MAX_ENTRIES", 5)  # ST/: 2 folders, 7 files; other/: 1 file
    answer = _search(studio, "ada", capsys)
    # ST/ is walked in name order up to its 5th entry (characters/, its file, worlds/, two of its files)
    relative = ["characters/ada-characters.json", "worlds/ada-0.json", "worlds/ada-1.json", "ada-other.json"]
    assert [hit["relative"] for hit in answer["items"]] == relative
    [unfinished] = answer["unfinished"]
    assert unfinished["folder"] == str(library) and unfinished["code"] == "too_large"
    assert "5 entries" in unfinished["message"] and "bunzai folder grant" in unfinished["hint"]
    assert "unreadable" not in answer
    over_mcp = Dispatcher(Context(studio=studio, handles=Handles())).call(
        "folder_search", {"query": "ada"}, "2025-06-18"
    )
    [told] = over_mcp["structuredContent"]["unfinished"]  # the hint in the tools' words: only the person grants
    assert told | {"hint": unfinished["hint"]} == unfinished and "bunzai" not in told["hint"]
    assert told["hint"].startswith("only the person can grant a folder: ask them to grant the folders you search in")


def test_one_entry_that_cannot_be_looked_at_names_its_folder_and_the_rest_of_it_is_searched(
    tmp_path, monkeypatch, capsys
) -> None:
    # an untyped file system stats each entry; one bad inode (EIO), past the first, is passed over, not the folder
    studio, library = _library(tmp_path)
    for name in ("ada-zz.json", "ada-zzz.json"):  # the bad one, and one after it
        (library / "worlds" / name).write_text("{}")
    real_scandir = os.scandir

    class Bad(_Unentered):
        def is_symlink(self) -> bool:
            raise OSError(errno.EIO, os.strerror(errno.EIO), self.path)

    def scandir(path):
        return iter([Bad(entry, False) if entry.name == "ada-zz.json" else entry for entry in real_scandir(path)])

    monkeypatch.setattr(files.os, "scandir", scandir)
    answer = _search(studio, "ada", capsys)
    assert [hit["relative"] for hit in answer["items"]] == [
        "characters/ada-characters.json",
        "worlds/ada-worlds.json",
        "worlds/ada-zzz.json",
    ]
    assert answer["unreadable"] == [str(library / "worlds")]


def test_a_first_entry_that_cannot_be_looked_at_is_not_taken_for_a_folder_not_entered(
    tmp_path, monkeypatch, capsys
) -> None:
    # the lstat of the first entry fails with EIO (a bad inode), not EACCES: the folder was entered,
    # so the rest of it is searched and the folder named, as for an entry past the first
    studio, library = _library(tmp_path)
    (library / "worlds" / "ada-after.json").write_text("{}")
    real_scandir = os.scandir

    class Bad(_Unentered):
        def stat(self, *, follow_symlinks: bool = True):
            raise OSError(errno.EIO, os.strerror(errno.EIO), self.path)

        def is_symlink(self) -> bool:
            raise OSError(errno.EIO, os.strerror(errno.EIO), self.path)

    def scandir(path):
        return iter([Bad(entry, False) if entry.name == "ada-after.json" else entry for entry in real_scandir(path)])

    monkeypatch.setattr(files.os, "scandir", scandir)
    answer = _search(studio, "ada", capsys)
    assert [hit["relative"] for hit in answer["items"]] == ["characters/ada-characters.json", "worlds/ada-worlds.json"]
    assert answer["unreadable"] == [str(library / "worlds")]
    with pytest.raises(BunzaiError) as caught:  # a walk that keeps no unreadable list names what failed, in its words
        list(files.walk_files(library / "worlds"))
    assert caught.value.code == "io_error" and str(library / "worlds") in caught.value.message
