"""A library export (`export --into DIR --layout sillytavern`): new files are made durable by
one sync at the end rather than one each; temp files a stopped export left in the folders it
writes into are removed (only bunzai's own, of a writer that is gone); and a world renamed
since it was read from a SillyTavern folder is written under its new name."""

from __future__ import annotations

import json
import os

import pytest
from testkit import v2_card_png

from bunzai import library_export
from bunzai.store import batch as batch_module
from bunzai.store.studio import find_studio

WORLD = {"entries": {"0": {"uid": 0, "key": ["gate"], "content": "The old gate.", "comment": "Gate"}}}
# No process has this pid: Linux's pid_max is at most 2**22.
GONE = 999_999_999


def _world(bunzai, piece_id: str, name: str) -> None:
    body = {"name": name, "entries": [{"uid": 0, "keys": [{"text": "k"}], "content": "A glade."}]}
    draft = bunzai("create", "lorebook", "--id", piece_id, "--input", json.dumps(body), check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)


def _export(bunzai, out, *refs: str):
    return bunzai("export", "--into", str(out), "--layout", "sillytavern", *refs, check=True).json


def test_a_stale_temp_file_is_removed_and_user_files_are_not(bunzai, tmp_path):
    _world(bunzai, "eldoria", "Eldoria")
    worlds = tmp_path / "ST" / "worlds"
    worlds.mkdir(parents=True)
    stale = worlds / f".Eldoria.json.{GONE}-0123456789ab.tmp"
    live = worlds / f".Other.json.{os.getpid()}-0123456789ab.tmp"  # this test's process is alive
    kept = [worlds / ".notes.tmp", worlds / f".x.json.{GONE}-zz.tmp", worlds / "draft.json.tmp", live]
    for path in [stale, *kept]:
        path.write_text("{}", encoding="utf-8")
    report = _export(bunzai, tmp_path / "ST", "lorebook/eldoria")
    assert report["counts"]["written"] == 1
    assert not stale.exists()
    assert all(path.exists() for path in kept)
    assert any("removed 1 temp file" in note for note in report["notes"])


def test_exporting_again_removes_a_temp_file_left_since(bunzai, tmp_path):
    _world(bunzai, "eldoria", "Eldoria")
    out = tmp_path / "ST"
    _export(bunzai, out, "lorebook/eldoria")
    stale = out / "worlds" / f".Eldoria.json.{GONE}-abcdef012345.tmp"  # as a killed export leaves it
    stale.write_text("{", encoding="utf-8")
    report = _export(bunzai, out, "lorebook/eldoria")
    assert report["counts"] == {"written": 0, "skipped_existing": 1, "not_written": 0}
    assert not stale.exists()
    again = _export(bunzai, out, "lorebook/eldoria")
    assert not any("temp file" in note for note in again["notes"])


@pytest.mark.skipif(batch_module._SYNCFS is None, reason="no syncfs here: each file is fsynced as it is written")
def test_new_files_are_synced_once_at_the_end_not_one_by_one(bunzai, tmp_path, monkeypatch):
    for index in range(5):
        _world(bunzai, f"world-{index}", f"World {index}")
    fsyncs, syncs = [], []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: fsyncs.append(fd) or real_fsync(fd))
    real_syncfs = batch_module.Batch._syncfs
    monkeypatch.setattr(batch_module.Batch, "_syncfs", lambda self: syncs.append(self.root) or real_syncfs(self))
    out = tmp_path / "ST"
    report = library_export.export_library(find_studio(str(bunzai.studio)), out, "sillytavern")
    assert len(report.written) == 5
    assert fsyncs == [] and syncs == [out]
    assert sorted(path.name for path in (out / "worlds").iterdir()) == [f"World {index}.json" for index in range(5)]


def test_a_world_renamed_since_it_was_read_goes_under_its_new_name(bunzai, tmp_path):
    st = tmp_path / "ST"
    (st / "worlds").mkdir(parents=True)
    (st / "characters").mkdir()
    (st / "worlds" / "Eldoria.json").write_text(json.dumps(WORLD), encoding="utf-8")
    (st / "characters" / "Alice1.png").write_bytes(v2_card_png("Alice"))
    drafts = bunzai("import", str(st), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    for cap, ref, name in (
        ("lorebook.settings.update", "eldoria", "Eldoria Reborn"),
        ("character.identity.update", "alice", "Alicia"),
    ):
        draft = bunzai("cap", "run", cap, ref, "--input", json.dumps({"name": name}), check=True)
        bunzai("apply", "--yes", input=draft.stdout, check=True)
    report = _export(bunzai, tmp_path / "out")
    written = {entry["ref"]: entry for entry in report["written"]}
    world = written["lorebook/eldoria"]
    assert world["path"] == "worlds/Eldoria Reborn.json" and world["losses"] == []
    # a card carries its name inside: it keeps the file SillyTavern keys its chats by
    assert written["character/alice"]["path"] == "characters/Alice1.png"
