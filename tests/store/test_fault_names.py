"""A write the system refuses (full disk, read-only mount, no rights) names what the person asked
to write (the piece's file, the export's file, the studio), not the hidden temp file or the
`.bunzai/` file the OSError names, and keeps the code its errno has. Faults are injected (the
tests run as root, where chmod refuses nothing)."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from bunzai.changes.apply import apply_draft
from bunzai.changes.create import create_draft
from bunzai.changes.watch import studio_changes
from bunzai.cli.entry import run
from bunzai.errors import BunzaiError
from bunzai.library_export import export_library
from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.store import atomic, changelog
from bunzai.store.changelog import annotated
from bunzai.store.faults import meant_path
from bunzai.store.pieces import create_piece
from bunzai.store.studio import Studio, init_studio
from bunzai.tools.contract import Context

CODES = {errno.ENOSPC: "disk_full", errno.EROFS: "studio_read_only", errno.EACCES: "permission_denied"}


def refuse_temp_files(monkeypatch, code: int) -> list[str]:
    """Every temp file a write makes fails with `code`, naming the temp file, as the system does;
    the names refused are returned."""
    real_open, refused = os.open, []

    def open_(path, flags, *args, **kwargs):
        if flags & os.O_CREAT and atomic.is_temp_name(os.path.basename(os.fspath(path))):
            refused.append(os.fspath(path))
            raise OSError(code, os.strerror(code), os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(atomic.os, "open", open_)
    return refused


def test_a_temp_file_is_named_as_the_file_it_was_to_become(tmp_path: Path) -> None:
    folder = tmp_path / "my-cards.v2"
    assert meant_path(str(folder / ".Ada-Lovelace.png.4242-0123456789ab.tmp")) == str(folder / "Ada-Lovelace.png")
    assert meant_path(str(folder / ".notes.tmp")) == str(folder / ".notes.tmp")  # a user's own dot file
    assert meant_path(None) is None and meant_path(None, tmp_path) == str(tmp_path)


def test_a_file_of_a_studios_state_folder_is_named_as_the_studio(tmp_path: Path) -> None:
    # The default studio lies in ~/.bunzai/studio: that .bunzai is no studio's state folder.
    studio, _ = init_studio(tmp_path / ".bunzai" / "studio")
    root = str(studio.root)
    assert meant_path(os.path.join(root, ".bunzai", "cursors", ".agent.json.7-0123456789ab.tmp")) == root
    assert meant_path(os.path.join(root, ".bunzai", "changes.jsonl")) == root
    piece = os.path.join(root, "character", ".ada.json.7-0123456789ab.tmp")
    assert meant_path(piece) == os.path.join(root, "character", "ada.json")
    assert meant_path(str(tmp_path / ".bunzai" / "x")) == str(tmp_path / ".bunzai" / "x")  # no studio there


@pytest.mark.parametrize("fault", sorted(CODES))
def test_apply_names_the_piece_file(tmp_path: Path, monkeypatch, fault: int) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    draft = create_draft("character", {"name": "Ada"})
    refused = refuse_temp_files(monkeypatch, fault)
    done = apply_draft(studio, draft)
    assert (done["status"], done["reason"]) == ("failed", CODES[fault])
    assert refused and all(name not in done["message"] for name in refused)
    assert f"{studio.piece_file('character', 'ada')};" in done["message"]


def test_bury_at_the_shell_names_the_graveyard_file_not_its_temp_file(tmp_path: Path, monkeypatch, capsys) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada"})
    monkeypatch.setenv("BUNZAI_STUDIO", str(studio.root))
    refused = refuse_temp_files(monkeypatch, errno.EROFS)
    assert run(["bury", "character/ada"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "studio_read_only" and refused
    assert meant_path(refused[0]) in error["message"] and refused[0] not in error["message"]
    assert ".tmp" not in error["message"]


def _full(log, fields):  # a full disk fails the change log's append, and os.write names no file
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("chosen", ["env", "flag", "upward"])
def test_at_the_shell_a_fault_naming_no_file_names_the_studio(tmp_path: Path, monkeypatch, capsys, chosen) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada"})
    args = ["bury", "character/ada"]
    if chosen == "env":
        monkeypatch.setenv("BUNZAI_STUDIO", str(studio.root))
    elif chosen == "flag":
        args += ["--studio", str(studio.root)]
    else:
        monkeypatch.chdir(studio.root / "character")

    monkeypatch.setattr(changelog._Log, "append", _full)  # a temp file's write names its file: the log's does not
    assert run(args) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "disk_full" and f": {studio.root};" in error["message"]


def test_an_mcp_tool_names_what_it_wrote_and_the_studio_where_the_error_names_nothing(
    tmp_path: Path, monkeypatch
) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada"})
    dispatcher = Dispatcher(Context(studio=Studio(studio.root), handles=Handles()))
    refused = refuse_temp_files(monkeypatch, errno.EACCES)
    result = dispatcher.call("studio_graveyard_bury", {"ref": "character/ada"}, "2025-06-18")
    error = result["structuredContent"]["error"]
    assert result["isError"] and error["code"] == "permission_denied"
    assert meant_path(refused[0]) in error["message"] and ".tmp" not in error["message"]
    monkeypatch.undo()

    monkeypatch.setattr(changelog._Log, "append", _full)
    result = dispatcher.call("studio_graveyard_bury", {"ref": "character/ada"}, "2025-06-18")
    error = result["structuredContent"]["error"]
    assert error["code"] == "disk_full" and f": {studio.root};" in error["message"]


def test_a_cursor_that_cannot_be_saved_names_the_studio(tmp_path: Path, monkeypatch) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    with annotated(session="person"):
        create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada"})
    refused = refuse_temp_files(monkeypatch, errno.EROFS)
    with pytest.raises(BunzaiError) as caught:
        studio_changes(studio, "agent", save=True)
    assert caught.value.code == "studio_read_only" and refused
    assert caught.value.message.endswith(f": {studio.root}; nothing was half-written")


@pytest.mark.parametrize("fault", sorted(CODES))
def test_a_library_export_names_the_file_it_meant(tmp_path: Path, monkeypatch, fault: int) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "lorebook", "id": "eldoria", "name": "Eldoria", "body": {"entries": []}})
    refused = refuse_temp_files(monkeypatch, fault)
    report = export_library(studio, tmp_path / "ST", "sillytavern").to_json()
    [item] = report["not_written"]
    assert item["ref"] == "lorebook/eldoria" and item["error"]["code"] == CODES[fault]
    assert refused and f"{tmp_path / 'ST' / 'worlds' / 'Eldoria.json'};" in item["error"]["message"]
    assert not any(name in item["error"]["message"] for name in refused)
