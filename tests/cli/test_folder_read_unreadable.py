"""`folder read` of a folder holding an entry it cannot look at lists the rest and names that
entry under `unreadable`, as `folder search` names what it could not look into; the studio is
not touched. A folder that cannot be entered is still refused whole. A path past the system's
longest (ENAMETOOLONG) is a fault root meets too; the others are injected (the tests run as root)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys

import pytest

from bunzai import files
from bunzai.cli.entry import run
from bunzai.folders import grant
from bunzai.store.studio import init_studio
from test_list_folder_entry_faults import _failing


def _granted(tmp_path, *names: str):
    studio, _ = init_studio(tmp_path / "studio")
    library = tmp_path / "ST"
    (library / "worlds").mkdir(parents=True)
    for name in names:
        (library / name).write_text("{}")
    grant(studio, library)
    return studio, library


def _tree(root) -> dict:
    """Every file under `root` with its bytes: what a read must leave as it was."""
    return {
        os.path.join(folder, name): open(os.path.join(folder, name), "rb").read()
        for folder, _, names in os.walk(root)
        for name in names
    }


def _read(studio, path, capsys) -> tuple[int, dict]:
    code = run(["--studio", str(studio.root), "folder", "read", str(path)])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("number", [errno.EIO, errno.ENAMETOOLONG])
@pytest.mark.parametrize("bad", ["a.json", "m.json"])  # the first entry (looked at to enter), or one after it
def test_an_entry_that_cannot_be_looked_at_is_named_and_the_rest_listed(tmp_path, monkeypatch, capsys, bad, number):
    studio, library = _granted(tmp_path, "a.json", "m.json", "z.json")
    before = _tree(studio.root)
    _failing(monkeypatch, {bad: number})  # a file system that reports no entry types looks at each one
    code, answer = _read(studio, library, capsys)
    assert code == 0
    assert answer["folders"] == ["worlds"]
    assert answer["files"] == [name for name in ("a.json", "m.json", "z.json") if name != bad]
    assert answer["count"] == 3 and answer["unreadable"] == [str(library / bad)]
    monkeypatch.undo()  # os.walk lists through the patched scandir
    assert _tree(studio.root) == before


def test_unreadable_is_named_on_every_page(tmp_path, monkeypatch, capsys) -> None:
    studio, library = _granted(tmp_path, "a.json", "m.json", "z.json")
    _failing(monkeypatch, {"m.json": errno.EIO})
    pages = []
    for offset in (0, 2):
        code = run(
            ["--studio", str(studio.root), "folder", "read", str(library), "--offset", str(offset)] + ["--limit", "2"]
        )
        assert code == 0
        pages.append(json.loads(capsys.readouterr().out))
    assert [page["folders"] + page["files"] for page in pages] == [["worlds", "a.json"], ["z.json"]]
    assert [page["unreadable"] for page in pages] == [[str(library / "m.json")]] * 2


def test_a_folder_without_a_bad_entry_has_no_unreadable(tmp_path, capsys) -> None:
    studio, library = _granted(tmp_path, "a.json")
    code, answer = _read(studio, library, capsys)
    assert code == 0 and "unreadable" not in answer and answer["files"] == ["a.json"]


def test_a_folder_listed_but_not_entered_is_still_refused_whole(tmp_path, monkeypatch, capsys) -> None:
    # read without execute: every lstat is denied; that is the folder's fault, not one entry's
    studio, library = _granted(tmp_path, "a.json", "m.json")
    _failing(monkeypatch, {"a.json": errno.EACCES, "m.json": errno.EACCES, "worlds": errno.EACCES})
    code, answer = _read(studio, library, capsys)
    assert code == 1
    assert answer["error"]["code"] == "invalid_input"
    assert answer["error"]["message"] == f"cannot enter {library}: Permission denied"


def _deep_folder(top) -> str:
    """A folder whose path is a little short of Linux's longest (PATH_MAX, 4096 bytes), made from
    its parent down: a file named in it with a long name has a path no system call takes."""
    folder = str(top)
    parent = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        while len(folder) < 3850:
            os.mkdir("d" * 200, dir_fd=parent)
            child = os.open("d" * 200, os.O_RDONLY | os.O_DIRECTORY, dir_fd=parent)
            os.close(parent)
            parent, folder = child, f"{folder}/{'d' * 200}"
        for name in ("a" + "x" * 250, "b.txt"):  # the long one first in name order: the one looked at to enter
            os.close(os.open(name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=parent))
    finally:
        os.close(parent)
    return folder


def test_a_path_too_long_to_look_at_is_named_by_the_real_command(tmp_path) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    top = tmp_path / "deep"
    top.mkdir()
    folder = _deep_folder(top)
    grant(studio, top)
    before = _tree(studio.root)
    done = subprocess.run(
        [sys.executable, "-m", "bunzai", "--studio", str(studio.root), "folder", "read", folder],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["files"] == ["b.txt"] and answer["unreadable"] == [f"{folder}/a{'x' * 250}"]
    assert _tree(studio.root) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads past chmod 000, so the folder would not be locked")
def test_a_locked_subfolder_is_listed_as_a_folder(tmp_path, capsys) -> None:
    # one level: the locked folder is named, not entered, so nothing in it is needed to list it
    studio, library = _granted(tmp_path, "a.json")
    (library / "worlds").chmod(0)
    try:
        code, answer = _read(studio, library, capsys)
    finally:
        (library / "worlds").chmod(0o755)
    assert code == 0 and answer["folders"] == ["worlds"] and "unreadable" not in answer


def test_a_walk_with_no_list_for_entries_still_names_the_folder(tmp_path, monkeypatch) -> None:
    # folder search's walk: the folder of a bad entry is named, not the entry (bad_entries is read's)
    library = tmp_path / "ST"
    library.mkdir()
    for name in ("a.json", "m.json"):
        (library / name).write_text("{}")
    _failing(monkeypatch, {"m.json": errno.EIO})
    unreadable: list[str] = []
    assert list(files.walk_files(library, unreadable=unreadable)) == [library / "a.json"]
    assert unreadable == [str(library)]
