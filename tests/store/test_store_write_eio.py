"""A store write the disk fails (EIO) where the fault names no file (os.write, os.fsync, syncfs)
still says nothing was half-written: every such write goes through a temp file that takes its
name whole. The apply door's group-commit sync, and a write outside apply that reaches the CLI's
last catch, say it and name the file meant; the studio is left as it was. Faults are injected."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from bunzai.cli.entry import run
from bunzai.store import atomic, batch
from bunzai.store.studio import init_studio

HALF = "; nothing was half-written"


def _eio(*args, **kwargs):
    raise OSError(errno.EIO, os.strerror(errno.EIO))  # as os.write, os.fsync and syncfs raise it: no file named


def _files(root: Path) -> dict[str, bytes]:
    return {
        os.path.relpath(os.path.join(folder, name), root): Path(folder, name).read_bytes()
        for folder, _, names in os.walk(root)
        for name in names
    }


def _draft(studio, tmp_path: Path, capsys) -> Path:
    assert run(["--studio", str(studio.root), "create", "character", "--input", '{"name": "Ada"}']) == 0
    draft = tmp_path / "ada.json"
    draft.write_text(capsys.readouterr().out)
    return draft


@pytest.mark.skipif(batch._SYNCFS is None, reason="no syncfs here: a window fsyncs each file as it is written")
def test_apply_whose_group_commit_sync_fails_says_nothing_was_written(tmp_path, monkeypatch, capsys) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    draft = _draft(studio, tmp_path, capsys)
    before = _files(studio.root)
    monkeypatch.setattr(batch, "_SYNCFS", _eio)  # the window's first sync: before any piece has its name
    assert run(["--studio", str(studio.root), "apply", "--yes", str(draft)]) == 1
    done = json.loads(capsys.readouterr().out)  # the draft's receipt, as for any write that failed
    assert (done["status"], done["reason"]) == ("failed", "io_error") and done["hint"]
    assert done["message"] == (
        f"the disk failed reading or writing (an I/O error): {studio.piece_file('character', 'ada')}; nothing was "
        "written: the disk failed the sync of its bytes, before any piece of its batch window took its name"
    )
    monkeypatch.undo()
    assert _files(studio.root) == before  # no piece, no temp file, no change record


@pytest.mark.parametrize("call", ["write", "fsync"])
def test_apply_whose_piece_write_fails_says_it_in_the_receipt(tmp_path, monkeypatch, capsys, call) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    draft = _draft(studio, tmp_path, capsys)
    before = _files(studio.root)
    monkeypatch.setattr(batch, "_SYNCFS", None)  # each file fsynced as it is written, so fsync is met too
    real = getattr(os, call)
    monkeypatch.setattr(atomic.os, call, lambda fd, *rest: _eio() if fd > 2 else real(fd, *rest))
    assert run(["--studio", str(studio.root), "apply", "--yes", str(draft)]) == 1
    done = json.loads(capsys.readouterr().out)
    assert (done["status"], done["reason"]) == ("failed", "io_error")
    assert done["message"].endswith(f"{studio.piece_file('character', 'ada')}{HALF}")
    monkeypatch.undo()
    assert _files(studio.root) == before


@pytest.mark.parametrize("call", ["write", "fsync"])
def test_a_settings_write_outside_apply_names_its_file_and_says_it(tmp_path, monkeypatch, capsys, call) -> None:
    # the CLI's last catch codes it: the temp file named on the fault tells it a write failed
    studio, _ = init_studio(tmp_path / "studio")
    library = tmp_path / "ST"
    library.mkdir()
    before = _files(studio.root)
    real = getattr(os, call)
    monkeypatch.setattr(atomic.os, call, lambda fd, *rest: _eio() if fd > 2 else real(fd, *rest))
    assert run(["--studio", str(studio.root), "folder", "grant", str(library)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "io_error"
    assert error["message"] == f"the disk failed reading or writing (an I/O error): {studio.settings_path}{HALF}"
    monkeypatch.undo()
    assert _files(studio.root) == before


def test_a_temp_file_write_that_fails_names_the_temp_file_and_leaves_none(tmp_path, monkeypatch) -> None:
    target = tmp_path / "notes.json"
    monkeypatch.setattr(atomic.os, "write", _eio)
    with pytest.raises(OSError) as caught:
        atomic.replace_file(target, b"{}")
    assert caught.value.errno == errno.EIO and atomic.is_temp_name(os.path.basename(caught.value.filename))
    assert Path(caught.value.filename).parent == tmp_path
    monkeypatch.undo()
    assert os.listdir(tmp_path) == []
