"""A file that opens but fails while it is read (EIO on a failing disk) is that file's error, not the walk's end."""

from __future__ import annotations

import errno

import pytest
from testkit import v2_card_png

from bunzai import files
from bunzai.changes.imports import drafts_from_path
from bunzai.errors import BunzaiError


def _failing_first_read(monkeypatch) -> None:
    real, calls = files.read_up_to, []

    def read(fd: int, limit: int) -> bytes:
        calls.append(fd)
        if len(calls) == 1:
            raise OSError(errno.EIO, "Input/output error")
        return real(fd, limit)

    monkeypatch.setattr(files, "read_up_to", read)


def test_a_read_error_after_the_open_is_a_coded_error(tmp_path, monkeypatch):
    path = tmp_path / "Ada.png"
    path.write_bytes(v2_card_png("Ada"))
    _failing_first_read(monkeypatch)
    with pytest.raises(BunzaiError) as caught:
        files.read_file_bytes(path)
    assert caught.value.code == "io_error" and str(path) in caught.value.message  # the disk's fault, not the file's
    assert files.read_file_bytes(path) == path.read_bytes()  # the descriptor was closed; the next read works


def test_a_walk_goes_on_past_a_file_the_disk_fails_to_read(tmp_path, monkeypatch):
    (tmp_path / "Ada.png").write_bytes(v2_card_png("Ada"))
    (tmp_path / "Mira.png").write_bytes(v2_card_png("Mira", seed=2))
    _failing_first_read(monkeypatch)
    results = {path.name: result for path, result in drafts_from_path(tmp_path)}
    assert isinstance(results["Ada.png"], BunzaiError) and results["Ada.png"].code == "io_error"
    assert [draft["target"]["id"] for draft in results["Mira.png"]] == ["mira"]


def test_a_user_folder_shelf_that_cannot_be_listed_leaves_the_rest_of_the_library(tmp_path, monkeypatch):
    from bunzai.changes import imports

    root = tmp_path / "default-user"
    (root / "worlds").mkdir(parents=True)
    (root / "characters").mkdir()
    (root / "characters" / "Mira.png").write_bytes(v2_card_png("Mira"))
    real = imports.list_folder

    def listing(folder, unreadable=None):
        if folder.name == "worlds":
            raise BunzaiError("invalid_input", f"cannot list {folder}: Input/output error")
        return real(folder, unreadable)

    monkeypatch.setattr(imports, "list_folder", listing)
    results = {path.name: result for path, result in drafts_from_path(root)}
    assert isinstance(results["worlds"], BunzaiError)
    assert [draft["target"]["id"] for draft in results["Mira.png"]] == ["mira"]


def test_a_close_that_fails_after_a_whole_read_still_gives_the_bytes(tmp_path, monkeypatch):
    # NFS may report a write-back failure (EIO) at close; a read-only descriptor lost nothing,
    # so the bytes read are the answer, not a raw OSError out of the import.
    path = tmp_path / "Ada.png"
    path.write_bytes(v2_card_png("Ada"))
    real, closed = files.os.close, []

    def close(fd: int) -> None:
        real(fd)
        closed.append(fd)
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(files.os, "close", close)
    assert files.read_file_bytes(path) == path.read_bytes()
    assert len(closed) == 1
