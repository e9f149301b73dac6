"""`bunzai doctor` over the graveyard and `Export/`: graveyard files a restore would refuse or not
see are reported and left where they are; temp files a stopped export left are removed by
`--repair`, and nothing else under `Export/` is."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bunzai.store.doctor import examine
from bunzai.store.exports import write_export
from bunzai.store.graveyard import bury_piece
from bunzai.store.pieces import create_piece
from bunzai.store.studio import Studio


@pytest.fixture
def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    child = os.fork()
    if child == 0:
        os._exit(0)
    os.waitpid(child, 0)
    return child


def bury(studio: Studio, piece_id: str) -> Path:
    create_piece(studio, {"kind": "character", "id": piece_id, "name": piece_id.title()})
    stamp = bury_piece(studio, "character", piece_id)["entry"].split("@")[1]
    return studio.graveyard_dir / "character" / f"{piece_id}@{stamp}.json"


def graveyard_rows(report: dict) -> dict[str, dict]:
    return {Path(row["path"]).name: row for row in report["problems"] if row["check"] == "graveyard"}


def test_a_graveyard_and_exports_written_by_bunzai_are_clean(studio: Studio) -> None:
    bury(studio, "ada")
    create_piece(studio, {"kind": "character", "id": "bob", "name": "Bob"})
    write_export(studio, "bob", "bob.json", b"{}")
    report = examine(studio)
    assert report["clean"], report["problems"]


def test_damaged_graveyard_files_are_reported_and_repair_leaves_them(studio: Studio, tmp_path: Path) -> None:
    kept = bury(studio, "ada")
    folder = kept.parent
    tail = kept.name.split("@")[1]  # "<stamp>.json"
    renamed = bury(studio, "bob")
    renamed = renamed.rename(folder / f"carl@{tail}")  # a hand rename: the file still says bob
    torn = bury(studio, "dora")
    torn.write_bytes(torn.read_bytes()[:20])
    (folder / f"eve@{tail}").write_text("[1, 2]", encoding="utf-8")
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"kind": "character", "id": "fay"}), encoding="utf-8")
    (folder / f"fay@{tail}").symlink_to(outside)
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    (folder / ".DS_Store").write_bytes(b"\0")  # an operating system's leftover: no one's content
    (studio.graveyard_dir / "stray.json").write_text("{}", encoding="utf-8")
    before = {path.name: path.read_bytes() for path in folder.iterdir() if not path.is_symlink()}

    report = examine(studio, repair=True)

    rows = graveyard_rows(report)
    assert set(rows) == {renamed.name, torn.name, f"eve@{tail}", f"fay@{tail}", "notes.txt", "stray.json"}
    assert rows[renamed.name]["code"] == "invalid_piece" and "'bob'" in rows[renamed.name]["message"]
    assert rows[torn.name]["code"] == "invalid_json"
    assert rows[f"eve@{tail}"]["code"] == "invalid_piece" and "not a JSON object" in rows[f"eve@{tail}"]["message"]
    assert "symbolic link" in rows[f"fay@{tail}"]["message"]
    assert rows["notes.txt"]["code"] == "invalid_id" and rows["stray.json"]["code"] == "invalid_input"
    assert report["repaired"] == [] and not report["clean"]
    assert {path.name: path.read_bytes() for path in folder.iterdir() if not path.is_symlink()} == before
    assert (folder / f"fay@{tail}").is_symlink() and (studio.graveyard_dir / "stray.json").exists()


def test_a_stopped_exports_temp_files_are_removed_and_nothing_else(studio: Studio, dead_pid: int) -> None:
    kit = studio.export_dir / "20261130T051500123456Z Kit ada"
    deep = kit / "characters" / "Ada"
    deep.mkdir(parents=True)
    left = [kit / f".ada.json.{dead_pid}-0123456789ab.tmp", deep / f".1.png.{dead_pid}-abcdefabcdef.tmp"]
    for path in left:
        path.write_bytes(b"half")
    mine = [
        kit / ".notes.tmp",  # a person's own dot-file
        kit / f".ada.json.{dead_pid}-xyz.tmp",  # not a name bunzai makes
        kit / f".ada.json.{os.getpid()}-0123456789ab.tmp",  # a live writer's
        kit / "ada.json",
    ]
    for path in mine:
        path.write_bytes(b"mine")
    (kit / f".link.{dead_pid}-0123456789ab.tmp").symlink_to(kit / "ada.json")

    found = examine(studio)
    temps = sorted(row["path"] for row in found["problems"] if row["check"] == "temp_file")
    assert temps == sorted(str(path) for path in left)

    repaired = examine(studio, repair=True)
    assert sorted(row["path"] for row in repaired["repaired"]) == temps and repaired["clean"]
    assert not any(path.exists() for path in left)
    assert all(path.read_bytes() == b"mine" for path in mine)
    assert (kit / f".link.{dead_pid}-0123456789ab.tmp").is_symlink()


def test_a_linked_export_folder_is_not_walked(studio: Studio, tmp_path: Path, dead_pid: int) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    temp = elsewhere / f".x.json.{dead_pid}-0123456789ab.tmp"
    temp.write_bytes(b"not the studio's")
    studio.export_dir.rmdir()  # init makes it
    studio.export_dir.symlink_to(elsewhere)
    report = examine(studio, repair=True)
    assert temp.exists() and report["repaired"] == []


def test_a_temp_file_left_in_the_state_folder_is_removed(studio: Studio, dead_pid: int) -> None:
    """The graveyard listing's cache (`.bunzai/graveyard.json`) is replaced through a temp file there."""
    temp = studio.state_dir / f".graveyard.json.{dead_pid}-0123456789ab.tmp"
    temp.write_bytes(b"{")
    report = examine(studio, repair=True)
    assert [row["path"] for row in report["repaired"]] == [str(temp)] and not temp.exists()
