"""A folder sync the disk fails after a file took its name (or lost it), outside apply's batch: the
refusal names that file, not the studio, and says what is true: the file is there whole, not
confirmed durable, and the command stopped there. A delete whose removal is not confirmed durable
is applied, with `durable: false` and a warning, as a burial is. An export whose sync fails takes its kit
folder back and says so. Faults are injected (os.fsync of a folder raises OSError EIO, no file named)."""

from __future__ import annotations

import errno
import json
import os
import tomllib
from pathlib import Path

from bunzai.changes.lifecycle import lifecycle_refusal
from bunzai.cli.entry import run
from bunzai.errors import BunzaiError
from bunzai.store import atomic
from bunzai.store.changelog import read_changes
from bunzai.store.pieces import create_piece, try_read
from bunzai.store.studio import init_studio

EIO = "the disk failed reading or writing (an I/O error)"
UNDONE = "but the disk failed the sync of its folder that makes that durable: a power cut may"


def _fail_folder(monkeypatch, failing: Path | None = None) -> None:
    """fsync of the folder `failing` (of every folder when None) fails with EIO, naming no file."""
    real = atomic.fsync_dir

    def fsync_dir(folder):
        if failing is None or Path(folder) == failing:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(folder)

    monkeypatch.setattr(atomic, "fsync_dir", fsync_dir)


def _error(args: list[str], capsys) -> dict:
    assert run(args) == 1
    return json.loads(capsys.readouterr().out)["error"]


def test_a_settings_file_whose_folder_sync_fails_is_named_written_whole(tmp_path, monkeypatch, capsys) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    library = tmp_path / "ST"
    library.mkdir()
    _fail_folder(monkeypatch)
    error = _error(["--studio", str(studio.root), "folder", "grant", str(library)], capsys)
    monkeypatch.undo()
    assert error["code"] == "io_error" and error["hint"]
    assert error["message"] == (
        f"{EIO}: {studio.settings_path}; it was written whole under its name, {UNDONE} still undo it, "
        "and the command stopped there"
    )
    assert error["details"] == {"path": str(studio.settings_path), "durable": False}
    assert str(library) in json.dumps(tomllib.loads(studio.settings_path.read_text()))  # true: it is there


def test_a_delete_whose_removal_is_not_confirmed_is_applied_not_durable(tmp_path, monkeypatch, capsys) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada"})
    _fail_folder(monkeypatch, studio.root / "character")  # the history file's folder syncs
    assert run(["--studio", str(studio.root), "delete", "character/ada", "--yes"]) == 1
    monkeypatch.undo()
    done = json.loads(capsys.readouterr().out)
    assert done["status"] == "applied" and done["durable"] is False  # deleted whole, as a burial says it
    assert done["seq"] == read_changes(studio)[-1]["seq"]
    warning = done["warning"]
    assert warning["code"] == "io_error"
    assert warning["message"] == (
        f"{EIO}: {studio.piece_file('character', 'ada')}; character/ada was deleted, with its change record "
        f"(seq {done['seq']}), but the disk failed the sync that makes its file's removal durable: a power cut "
        "may bring the file back"
    )
    assert warning["hint"].endswith("; `bunzai read character/ada` shows whether it is back")
    assert "run the command again" not in warning["hint"]  # it did happen: again finds it missing
    assert try_read(studio, "character", "ada") is None
    assert [r["op"] for r in read_changes(studio)] == ["create", "delete"]  # the log says what the files hold
    refused = lifecycle_refusal(done, "deleting character/ada")  # the MCP tool's answer
    assert isinstance(refused, BunzaiError) and refused.code == "io_error"


def test_a_file_of_the_state_folder_is_said_of_the_studio_by_its_name(tmp_path, monkeypatch, capsys) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada"})
    revision = try_read(studio, "character", "ada").revision
    _fail_folder(monkeypatch, studio.history_dir / "character" / "ada")  # the revision kept for revert
    error = _error(["--studio", str(studio.root), "delete", "character/ada", "--yes"], capsys)
    monkeypatch.undo()
    assert error["message"] == (
        f"{EIO}: {studio.root}; {revision}.json, a file of its .bunzai/ folder, was written whole under its name, "
        f"{UNDONE} still undo it, and the command stopped there"
    )
    assert try_read(studio, "character", "ada").revision == revision  # stopped before the delete
    assert [r["op"] for r in read_changes(studio)] == ["create"]


def test_an_export_whose_folder_sync_fails_takes_its_folder_back_and_says_so(tmp_path, monkeypatch, capsys) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada"})
    _fail_folder(monkeypatch, studio.export_dir)  # the kit folder's own name
    error = _error(["--studio", str(studio.root), "export", "ada", "--to", "agnai.character.json"], capsys)
    monkeypatch.undo()
    assert error["code"] == "io_error"
    kit = error["message"][len(EIO) + 2 : error["message"].index("; ")]
    assert error["message"] == (
        f"{EIO}: {kit}; the disk failed a sync of a file written there, so the export's folder was removed: "
        "nothing was kept"
    )
    assert Path(kit).parent == studio.export_dir and Path(kit).name.endswith(" Kit ada")
    assert os.listdir(studio.export_dir) == []


def test_a_converted_folder_whose_sync_fails_is_taken_back_and_said_so(tmp_path, monkeypatch, capsys) -> None:
    from bunzai.adapters.common.zipsafe import write_archive

    png = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(13)
    zipped = tmp_path / "Ada.zip"
    zipped.write_bytes(write_archive([("joy.png", png + b"a"), ("neutral.png", png + b"b")]))
    out = tmp_path / "Ada"
    _fail_folder(monkeypatch)  # the hidden folder the files go into, before it is renamed to OUT
    error = _error(["convert", str(zipped), "--to", "sillytavern.sprites.folder", "-o", str(out)], capsys)
    monkeypatch.undo()
    assert error["code"] == "io_error"
    assert error["message"] == (
        f"{EIO}: {out}; the disk failed a sync of a file written there, so the folder was removed: nothing was kept"
    )
    assert sorted(os.listdir(tmp_path)) == ["Ada.zip"]  # no OUT, no hidden folder
