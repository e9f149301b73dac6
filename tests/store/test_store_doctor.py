"""`bunzai doctor`: what a studio holds that it should not, and the safe repairs."""

from __future__ import annotations

import fcntl
import json
import os

from bunzai.store import changelog
from bunzai.store.assets import put_asset
from bunzai.store.atomic import process_started_at
from bunzai.store.changelog import append_change
from bunzai.store.doctor import examine
from bunzai.store.history import piece_history_dir, read_revision
from bunzai.store.locks import lock_path
from bunzai.store.pieces import create_piece, delete_piece, read_stored, update_piece
from bunzai.store.studio import Studio


def piece(piece_id: str = "ada", **body) -> dict:
    return {"kind": "character", "id": piece_id, "name": piece_id.title(), "body": body}


def checks(report: dict) -> list[str]:
    return sorted(problem["check"] for problem in report["problems"])


def test_a_studio_written_by_bunzai_is_clean(studio: Studio) -> None:
    create_piece(studio, piece())
    stored = read_stored(studio, "character", "ada")
    update_piece(studio, piece(description="x"), stored.revision)
    report = examine(studio)
    assert report["clean"] and report["pieces"] == 1 and report["log_records"] == 2


def test_leftovers_of_dead_writers_are_found_and_repaired(studio: Studio) -> None:
    create_piece(studio, piece())
    dead = os.fork()
    if dead == 0:
        os._exit(0)
    os.waitpid(dead, 0)
    temp = studio.root / "character" / f".ada.json.{dead}-abcdef.tmp"
    temp.write_bytes(b"{")
    orphan = studio.assets_dir / f"{'a' * 64}.png"
    orphan.write_bytes(b"x")
    stray = lock_path(studio, "character/bob")
    stray.write_bytes(b"")
    assert checks(examine(studio)) == ["lock_file", "orphan_asset", "temp_file"]
    repaired = examine(studio, repair=True)
    assert repaired["clean"] and len(repaired["repaired"]) == 3
    assert not temp.exists() and not orphan.exists() and not stray.exists()


def test_a_live_writers_temp_file_and_a_held_lock_are_left_alone(studio: Studio) -> None:
    temp = studio.root / "character" / f".ada.json.{os.getpid()}-abcdef.tmp"
    temp.write_bytes(b"{")
    held = lock_path(studio, "character/ada")
    fd = os.open(held, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        report = examine(studio, repair=True)
    finally:
        os.close(fd)
    assert report["clean"] and temp.exists() and held.exists()


def test_a_temp_file_named_after_a_pid_reused_since_is_found_within_the_grace(studio: Studio) -> None:
    """This process is alive but started after the file was written (ten minutes ago, inside
    DOCTOR_TEMP_GRACE_SECONDS): another process of that pid wrote it, and is gone."""
    temp = studio.root / "character" / f".ada.json.{os.getpid()}-abcdef.tmp"
    temp.write_bytes(b"{")
    started = process_started_at(os.getpid())
    assert started is not None
    os.utime(temp, (started - 600, started - 600))
    assert checks(examine(studio)) == ["temp_file"]


def test_assets_of_pieces_buried_pieces_and_saved_drafts_are_not_orphans(studio: Studio) -> None:
    ref = put_asset(studio, b"portrait", "png", "image/png")
    create_piece(studio, piece(portrait=ref))
    saved = put_asset(studio, b"saved", "png")
    studio.drafts_dir.mkdir(parents=True, exist_ok=True)
    (studio.drafts_dir / "d.json").write_text(json.dumps({"proposed": {"body": {"portrait": saved}}}))
    assert examine(studio)["clean"]


def test_assets_of_revisions_kept_for_revert_are_not_orphans(studio: Studio) -> None:
    old = put_asset(studio, b"red portrait", "png", "image/png")
    create_piece(studio, piece(portrait=old))
    first = read_stored(studio, "character", "ada")
    update_piece(studio, piece(portrait=put_asset(studio, b"blue portrait", "png", "image/png")), first.revision)
    create_piece(studio, piece("bob", portrait=put_asset(studio, b"bob portrait", "png", "image/png")))
    delete_piece(studio, "character", "bob")
    report = examine(studio, repair=True)
    assert report["clean"] and report["repaired"] == [] and report["assets"] == 3
    assert (studio.assets_dir / f"{old['sha256']}.png").read_bytes() == b"red portrait"
    assert read_revision(studio, "character", "ada", first.revision) is not None


def test_an_asset_only_a_torn_kept_revision_names_is_an_orphan(studio: Studio) -> None:
    old = put_asset(studio, b"red portrait", "png", "image/png")
    create_piece(studio, piece(portrait=old))
    first = read_stored(studio, "character", "ada")
    update_piece(studio, piece(description="x"), first.revision)
    kept = piece_history_dir(studio, "character", "ada") / f"{first.revision}.json"
    kept.write_bytes(kept.read_bytes() + b" ")  # no longer the revision it is named by: revert cannot use it
    assert checks(examine(studio)) == ["orphan_asset"]


def test_a_hand_edit_and_an_unlogged_piece_are_problems_repair_leaves_alone(studio: Studio) -> None:
    create_piece(studio, piece())
    path = studio.piece_path("character", "ada")
    path.write_text(path.read_text().replace('"Ada"', '"Ada!"'))
    (studio.root / "character" / "bob.json").write_text(json.dumps(piece("bob")))
    report = examine(studio, repair=True)
    assert checks(report) == ["log", "log"] and report["repaired"] == []


def test_a_logged_write_that_never_landed_is_a_note_not_a_problem(studio: Studio) -> None:
    create_piece(studio, piece())
    stored = read_stored(studio, "character", "ada")
    append_change(studio, kind="character", id="ada", revision="f" * 64, op="update", base=stored.revision)
    append_change(studio, kind="character", id="bob", revision="e" * 64, op="create")
    report = examine(studio)
    assert report["clean"] and len(report["notes"]) == 2


def test_a_damaged_piece_is_a_problem(studio: Studio) -> None:
    create_piece(studio, piece())
    studio.piece_path("character", "ada").write_text('{"kind": "character", "id": "ada", "name": 5}')
    assert "piece" in checks(examine(studio))


def test_a_piece_file_that_does_not_parse_is_a_problem_not_a_write_that_never_landed(studio: Studio) -> None:
    create_piece(studio, piece())
    studio.piece_path("character", "ada").write_text("{not json")
    report = examine(studio)
    assert checks(report) == ["piece"] and report["notes"] == []


def test_appends_from_one_writer_do_not_reread_the_log(studio: Studio, monkeypatch) -> None:
    reads = []
    real = changelog._last_seq
    monkeypatch.setattr(changelog, "_last_seq", lambda fd, size: reads.append(size) or real(fd, size))
    changelog._logs.clear()
    for n in range(200):
        assert append_change(studio, kind="character", id="a", revision=None, op="create") == n + 1
    assert len(reads) == 1  # once, when the log was first opened


def test_no_lock_file_outlives_its_write(studio: Studio) -> None:
    for n in range(20):
        create_piece(studio, piece(f"p{n}"))
    assert list(studio.locks_dir.iterdir()) == []
