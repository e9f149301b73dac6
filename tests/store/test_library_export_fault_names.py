"""A library export's per-piece refusal names the file the export meant, never the hidden temp
file (`.<name>.<pid>-<random>.tmp`) an OSError names: since `write_temp` names its temp file on
a nameless fault (os.write, os.fsync), a fault reaching the export's per-piece catch with no path
of its own (`_refused`) may name one. Faults are injected."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from bunzai import library_export
from bunzai.library_export import export_library
from bunzai.store.pieces import create_piece
from bunzai.store.studio import init_studio


@pytest.mark.parametrize(
    ("fault", "code"), [(errno.ENOSPC, "disk_full"), (errno.EIO, "io_error"), (errno.ENOTDIR, "invalid_input")]
)
def test_a_fault_naming_a_temp_file_is_said_of_the_file_meant(tmp_path: Path, monkeypatch, fault, code) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "lorebook", "id": "eldoria", "name": "Eldoria", "body": {"entries": []}})
    into = tmp_path / "ST"
    temp = into / "worlds" / f".Eldoria.json.{os.getpid()}-0123456789ab.tmp"

    def refused(*args, **kwargs):  # as a write through `write_temp` fails: the temp file named
        raise OSError(fault, os.strerror(fault), os.fspath(temp))

    monkeypatch.setattr(library_export, "_export_piece", refused)
    [item] = export_library(studio, into, "sillytavern").to_json()["not_written"]
    assert item["ref"] == "lorebook/eldoria" and item["error"]["code"] == code
    assert str(into / "worlds" / "Eldoria.json") in item["error"]["message"]
    assert ".tmp" not in item["error"]["message"]
