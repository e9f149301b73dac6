"""An I/O error (EIO: a failing disk, a network mount that dropped) is the device's fault, not a
bug in bunzai: it is the coded refusal io_error, naming the file, with a hint, at the shell and
over MCP, not an internal error. Faults are injected (a test cannot break the disk)."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from bunzai.cli.entry import run
from bunzai.errors import ERRORS, BunzaiError, from_os_error
from bunzai.folders import grant
from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.store import atomic
from bunzai.store.pieces import create_piece
from bunzai.store.studio import Studio, init_studio
from bunzai.tools.contract import Context

EIO = OSError(errno.EIO, os.strerror(errno.EIO))


def test_eio_is_a_coded_refusal_naming_the_file() -> None:
    coded = from_os_error(OSError(errno.EIO, os.strerror(errno.EIO), "/mnt/cards/Ada.png"))
    assert coded is not None and coded.code == "io_error" and coded.exit_code == 1
    assert "/mnt/cards/Ada.png" in coded.message and coded.hint
    assert "io_error" in ERRORS


def test_at_the_shell_a_disk_that_fails_reading_a_granted_folder_is_io_error(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    library = tmp_path / "ST"
    library.mkdir()
    grant(studio, library)
    real_stat = Path.stat

    def stat(self, *args, **kwargs):
        if self == library:
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(self))
        return real_stat(self, *args, **kwargs)

    monkeypatch.setattr(Path, "stat", stat)
    assert run(["--studio", str(studio.root), "folder", "read", str(library)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "io_error" and str(library) in error["message"] and error["hint"]


def test_over_mcp_a_disk_that_fails_a_write_is_io_error(tmp_path: Path, monkeypatch) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada"})
    dispatcher = Dispatcher(Context(studio=Studio(studio.root), handles=Handles()))

    def failing(fd, data):  # the disk fails the write itself, and os.write names no file
        raise EIO

    monkeypatch.setattr(atomic.os, "write", failing)
    result = dispatcher.call("studio_graveyard_bury", {"ref": "character/ada"}, "2025-06-18")
    error = result["structuredContent"]["error"]
    assert result["isError"] and error["code"] == "io_error" and str(studio.root) in error["message"]


def test_a_folder_the_disk_fails_to_list_is_io_error_where_a_walk_refuses_it(tmp_path: Path, monkeypatch) -> None:
    from bunzai import files

    def scandir(path):
        raise OSError(errno.EIO, os.strerror(errno.EIO), os.fspath(path))

    monkeypatch.setattr(files.os, "scandir", scandir)
    for listing in (lambda: list(files.walk_files(tmp_path)), lambda: files.list_folder(tmp_path)):
        with pytest.raises(BunzaiError) as caught:
            listing()
        assert caught.value.code == "io_error" and str(tmp_path) in caught.value.message and caught.value.hint


def test_a_path_the_disk_fails_to_resolve_is_io_error_not_said_missing(tmp_path: Path, monkeypatch, capsys) -> None:
    # a path inside a grant, and a folder to grant: the disk failing on the way is not "nothing at"
    studio, _ = init_studio(tmp_path / "studio")
    library = tmp_path / "ST"
    library.mkdir()
    (library / "notes.txt").write_text("hello")
    grant(studio, library)
    failing = {library / "notes.txt", tmp_path / "other"}
    real_resolve = Path.resolve

    def resolve(self, strict=False):
        if strict and self in failing:
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(self))
        return real_resolve(self, strict=strict)

    monkeypatch.setattr(Path, "resolve", resolve)
    for command in (["folder", "read", str(library / "notes.txt")], ["folder", "grant", str(tmp_path / "other")]):
        assert run(["--studio", str(studio.root), *command]) == 1
        error = json.loads(capsys.readouterr().out)["error"]
        assert error["code"] == "io_error" and command[-1] in error["message"], command
