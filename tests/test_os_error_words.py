"""Only a failed write says nothing was half-written: a read the disk fails (a file imported, a
folder listed, a granted path resolved) is io_error naming the file and says nothing of writes;
a fault caught far from the call that met it (the CLI's and the MCP server's last catch) says it
only where a write is known to have failed (it names a temp file, or only a write meets it)."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

from testkit import v2_card_png

from bunzai import files
from bunzai.cli import entry
from bunzai.errors import from_os_error
from bunzai.folders import grant
from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.store.studio import Studio, init_studio
from bunzai.tools.contract import Context

HALF = "half-written"


def _eio(path: object = None) -> OSError:
    return OSError(errno.EIO, os.strerror(errno.EIO), *([os.fspath(path)] if path is not None else []))


def test_a_file_the_disk_fails_to_read_says_nothing_of_writes(tmp_path: Path, monkeypatch, capsys) -> None:
    card = tmp_path / "Ada.png"
    card.write_bytes(v2_card_png("Ada"))

    def read(fd: int, limit: int) -> bytes:
        raise _eio()

    monkeypatch.setattr(files, "read_up_to", read)
    assert entry.run(["import", str(card)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "io_error" and str(card) in error["message"] and HALF not in error["message"]


def test_a_folder_the_disk_fails_to_list_or_resolve_says_nothing_of_writes(tmp_path: Path, monkeypatch, capsys):
    studio, _ = init_studio(tmp_path / "studio")
    library = tmp_path / "ST"
    library.mkdir()
    grant(studio, library)

    def scandir(path):
        raise _eio(path)

    monkeypatch.setattr(files.os, "scandir", scandir)
    assert entry.run(["--studio", str(studio.root), "folder", "read", str(library)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "io_error" and str(library) in error["message"] and HALF not in error["message"]
    monkeypatch.undo()
    real_resolve = Path.resolve

    def resolve(self, strict=False):
        if strict and self == library / "notes.txt":
            raise _eio(self)
        return real_resolve(self, strict=strict)

    monkeypatch.setattr(Path, "resolve", resolve)
    assert entry.run(["--studio", str(studio.root), "folder", "read", str(library / "notes.txt")]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "io_error" and HALF not in error["message"]


def test_a_write_still_says_nothing_was_half_written() -> None:
    coded = from_os_error(_eio("/s/character/ada.json"))
    assert coded.message.endswith(": /s/character/ada.json; nothing was half-written")
    assert HALF not in from_os_error(_eio("/s/character/ada.json"), writing=False).message


def _last_catch_at_the_shell(monkeypatch, capsys, error: OSError) -> str:
    class Command:
        def main(self, **kwargs):
            raise error

    from bunzai.cli import app

    monkeypatch.setattr(app, "command_for", lambda args: Command())
    assert entry.run(["doctor"]) == 1
    return json.loads(capsys.readouterr().out)["error"]["message"]


def test_the_last_catch_says_it_only_of_a_fault_a_write_is_known_to_meet(tmp_path: Path, monkeypatch, capsys):
    piece = tmp_path / "studio" / "character" / "ada.json"
    # a read (or a write, unknown) the disk failed: nothing said of writes
    assert _last_catch_at_the_shell(monkeypatch, capsys, _eio(piece)) == (
        f"the disk failed reading or writing (an I/O error): {piece}"
    )
    # a temp file is only ever written: the file it was to become is named, and nothing was half-written
    temp = piece.parent / ".ada.json.123-0123456789ab.tmp"
    refused = PermissionError(errno.EACCES, "Permission denied", str(temp))
    assert _last_catch_at_the_shell(monkeypatch, capsys, refused) == (
        f"permission denied: {piece}; nothing was half-written"
    )
    # a full disk is met by writes alone
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(piece))
    assert _last_catch_at_the_shell(monkeypatch, capsys, full).endswith("; nothing was half-written")


def test_over_mcp_a_read_the_disk_fails_says_nothing_of_writes(tmp_path: Path, monkeypatch) -> None:
    from bunzai.tools import studio_list

    studio, _ = init_studio(tmp_path / "studio")
    piece = studio.root / "character" / "ada.json"

    def listing(*args, **kwargs):
        raise _eio(piece)

    monkeypatch.setattr(studio_list, "list_shelf", listing)
    result = Dispatcher(Context(studio=Studio(studio.root), handles=Handles())).call("studio_list", {}, "2025-06-18")
    error = result["structuredContent"]["error"]
    assert result["isError"] and error["code"] == "io_error" and str(piece) in error["message"]
    assert HALF not in error["message"]


def test_a_settled_hint_keeps_what_to_fix_and_drops_only_the_retry() -> None:
    # For a write that landed although its last sync failed: running it again finds it done.
    from bunzai.errors import _OS_ERRORS, RUN_AGAIN, settled_hint

    for _code, _what, hint in _OS_ERRORS.values():
        settled = settled_hint(hint)
        assert RUN_AGAIN not in settled and settled and hint.startswith(settled)
    assert settled_hint("check who owns the file or folder") == "check who owns the file or folder"
