"""A library export's per-piece refusal names the file the export meant, never the hidden temp
file (`.<name>.<pid>-<random>.tmp`) an OSError names: since `write_temp` names its temp file on
a nameless fault (os.write, os.fsync), a fault reaching the export's per-piece catch with no path
of its own (`_refused`) may name one. A disk that fails the export's one sync at the end leaves
the report whole, saying so. Faults are injected."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from bunzai import library_export
from bunzai.cli.entry import run
from bunzai.library_export import export_library
from bunzai.store import batch
from bunzai.store.pieces import create_piece
from bunzai.store.studio import init_studio
from testkit import fail_syncfs


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


@pytest.mark.skipif(batch._SYNCFS is None, reason="no syncfs here: the export fsyncs each file")
def test_a_library_export_whose_last_sync_fails_keeps_its_report_and_says_so(tmp_path: Path, monkeypatch, capsys):
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "lorebook", "id": "eldoria", "name": "Eldoria", "body": {"entries": []}})
    into = tmp_path / "ST"
    fail_syncfs(monkeypatch, lambda n: True)
    args = ["--studio", str(studio.root), "export", "--into", str(into), "--layout", "sillytavern"]
    assert run(args) == 1
    monkeypatch.undo()
    report = json.loads(capsys.readouterr().out)
    assert [item["path"] for item in report["written"]] == ["worlds/Eldoria.json"]  # what is there, said
    assert report["durable"] is False and report["warning"]["code"] == "io_error"
    assert report["warning"]["message"] == (
        f"the disk failed reading or writing (an I/O error): {into}; the 1 file(s) under written were written "
        "there under their names, but the disk failed the sync that makes them durable: a power cut may still "
        "undo them, or leave them empty"
    )
    assert (into / "worlds" / "Eldoria.json").is_file()
