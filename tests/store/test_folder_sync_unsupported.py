"""A file system that cannot sync a folder at all answers fsync of one with EINVAL (or EBADF):
bunzai's writes go on there as elsewhere, every file still fsynced, and no receipt says
`durable: false` for it (bunzai/store/atomic.py, fsync_dir). Any other fault of a folder's sync
is still the write's (tests/store/test_settle_fault.py). Faults are injected: os.fsync of a
folder's descriptor raises."""

from __future__ import annotations

import errno
import json
import os
import stat

import pytest

from bunzai.cli.entry import run
from bunzai.store.pieces import create_piece, try_read
from bunzai.store.studio import init_studio


def _folders_cannot_sync(monkeypatch, code: int) -> list[int]:
    refused: list[int] = []
    real = os.fsync

    def fsync(fd):
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            refused.append(fd)
            raise OSError(code, os.strerror(code))
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return refused


@pytest.mark.parametrize("code", [errno.EINVAL, errno.EBADF])
def test_writes_and_deletes_go_on_where_folders_cannot_be_synced(tmp_path, monkeypatch, capsys, code) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    refused = _folders_cannot_sync(monkeypatch, code)
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada"})
    assert try_read(studio, "character", "ada") is not None
    assert run(["--studio", str(studio.root), "delete", "character/ada", "--yes"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert done["status"] == "applied" and "durable" not in done and "warning" not in done
    assert refused  # the folders' syncs were asked for, and refused, along the way
    assert try_read(studio, "character", "ada") is None


def test_a_folder_sync_that_fails_otherwise_still_stops_the_write(tmp_path, monkeypatch) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    _folders_cannot_sync(monkeypatch, errno.EIO)
    with pytest.raises(Exception) as raised:
        create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada"})
    assert getattr(raised.value, "code", None) == "io_error"
