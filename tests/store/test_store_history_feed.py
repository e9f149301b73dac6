"""Revert history (.bunzai/history), change-record annotations, and the change log read as a
feed: offsets, unfinished lines, and which records landed."""

from __future__ import annotations

import os
import tempfile
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai import limits
from bunzai.store.canon import revision_of
from bunzai.store.changelog import annotated, append_change, read_changes
from bunzai.store.doctor import examine
from bunzai.store.feed import entries_from, entry_ending_at, last_entry, landed
from bunzai.store.history import keep_revision, piece_history_dir, read_revision
from bunzai.store.locks import path_lock
from bunzai.store.pieces import create_piece, delete_piece, piece_lock_key, update_piece
from bunzai.store.studio import Studio, init_studio


def piece(piece_id: str = "ada", **fields: object) -> dict:
    return {"kind": "character", "id": piece_id, "name": piece_id.title(), **fields}


# --- history ---------------------------------------------------------------------------


def test_an_update_and_a_delete_keep_the_revision_they_replace(studio: Studio) -> None:
    first = create_piece(studio, piece())
    second = update_piece(studio, piece(name="Ada 2"), first.revision)
    kept = read_revision(studio, "character", "ada", first.revision)
    assert kept is not None and revision_of(kept) == first.revision
    delete_piece(studio, "character", "ada", second.revision)
    assert revision_of(read_revision(studio, "character", "ada", second.revision)) == second.revision


def test_history_keeps_the_newest_revisions_of_a_piece(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "HISTORY_PER_PIECE", 3)
    revisions = [create_piece(studio, piece()).revision]
    for n in range(5):
        revisions.append(update_piece(studio, piece(name=f"Ada {n}"), revisions[-1]).revision)
        time.sleep(0.01)  # distinct mtimes: pruning goes oldest first
    kept = sorted(p.stem for p in piece_history_dir(studio, "character", "ada").iterdir())
    assert kept == sorted(revisions[2:5])
    assert read_revision(studio, "character", "ada", revisions[0]) is None


def test_a_kept_file_that_is_not_its_revision_reads_as_absent(studio: Studio) -> None:
    first = create_piece(studio, piece())
    update_piece(studio, piece(name="B"), first.revision)
    path = piece_history_dir(studio, "character", "ada") / f"{first.revision}.json"
    path.write_bytes(path.read_bytes()[:10])  # torn by a crash before the batch's sync
    assert read_revision(studio, "character", "ada", first.revision) is None
    assert read_revision(studio, "character", "ada", "../../x") is None


def test_keeping_the_same_bytes_twice_writes_once(studio: Studio) -> None:
    raw = b'{"id": "ada", "kind": "character", "name": "A"}\n'
    assert keep_revision(studio, "character", "ada", raw) is not None
    assert keep_revision(studio, "character", "ada", raw) is None


def test_doctor_sweeps_temp_files_left_in_history(studio: Studio) -> None:
    folder = studio.writable_dir(piece_history_dir(studio, "character", "ada"))
    temp = folder / ".x.json.999999999-abc.tmp"
    temp.write_bytes(b"{")
    report = examine(studio, repair=True)
    assert any(row["path"] == str(temp) for row in report["repaired"])
    assert not temp.exists()


# --- annotations -----------------------------------------------------------------------


def test_annotated_records_carry_the_session_and_the_seq_they_revert(studio: Studio) -> None:
    with annotated(session="undoer", revert_of=7):
        create_piece(studio, piece())
    create_piece(studio, piece("bob"))
    first, second = read_changes(studio)
    assert first["session"] == "undoer" and first["revert_of"] == 7
    assert second["session"] != "undoer" and "revert_of" not in second
    with pytest.raises(ValueError):
        with annotated(kind="lorebook"):
            pass


# --- the feed --------------------------------------------------------------------------


def test_entries_end_where_their_lines_end_and_reading_on_from_an_end_continues(studio: Studio) -> None:
    for name in ("a", "b", "c"):
        create_piece(studio, piece(name))
    entries = list(entries_from(studio))
    assert [e.seq for e in entries] == [1, 2, 3]
    data = studio.changes_log.read_bytes()
    assert [e.end for e in entries] == [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    assert [e.seq for e in entries_from(studio, entries[0].end)] == [2, 3]
    assert entry_ending_at(studio, entries[1].end).seq == 2
    assert entry_ending_at(studio, entries[1].end - 1) is None
    assert last_entry(studio).seq == 3


def test_an_unfinished_last_line_is_left_for_the_next_read(studio: Studio) -> None:
    create_piece(studio, piece())
    with open(studio.changes_log, "ab") as handle:
        handle.write(b'{"seq": 2, "time": "t", "session": "s", "kind": "character", "id": "b", "op": "create"}')
    assert [e.seq for e in entries_from(studio)] == [1]
    assert last_entry(studio).seq == 1


def test_last_entry_reads_only_the_tail_of_a_long_log(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "CHANGELOG_TAIL_BYTES", 300)
    for n in range(20):
        create_piece(studio, piece(f"p{n}"))
    assert last_entry(studio).seq == 20


def test_a_record_whose_write_never_landed_is_not_landed(studio: Studio) -> None:
    stored = create_piece(studio, piece())
    append_change(studio, kind="character", id="ada", revision="f" * 64, op="update", base=stored.revision)
    append_change(studio, kind="character", id="bob", revision="e" * 64, op="create")
    assert landed(studio, list(entries_from(studio))) == [True, False, False]


def test_a_record_followed_by_another_is_judged_by_what_the_next_writer_found(studio: Studio) -> None:
    first = create_piece(studio, piece())
    append_change(studio, kind="character", id="ada", revision="f" * 64, op="update", base=first.revision)  # died
    second = update_piece(studio, piece(name="B"), first.revision)  # found the piece still at `first`
    update_piece(studio, piece(name="C"), second.revision)
    assert landed(studio, list(entries_from(studio))) == [True, False, True, True]


def test_a_writer_between_its_record_and_its_rename_is_waited_for(studio: Studio) -> None:
    first = create_piece(studio, piece())
    lock = path_lock(studio, piece_lock_key("character", "ada"))
    lock.__enter__()  # a writer that logged its intent and has not renamed yet
    try:
        append_change(studio, kind="character", id="ada", revision=revision_of(b"x"), op="update", base=first.revision)
        verdicts: list = []
        reader = threading.Thread(target=lambda: verdicts.extend(landed(studio, list(entries_from(studio)))))
        reader.start()
        time.sleep(0.2)
        assert reader.is_alive()  # the reader waits on the piece's lock
        path = studio.piece_path("character", "ada")
        os.replace(_write(path.with_name("tmp"), b"x"), path)
    finally:
        lock.__exit__(None, None, None)
    reader.join()
    assert verdicts == [True, True]


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


# A property: whatever mix of real writes and writes killed after their record (a "ghost":
# the intent logged, the rename never made), `landed` is true exactly for the real ones.
_OPS = st.lists(
    st.tuples(st.sampled_from(["write", "delete", "bury", "restore"]), st.sampled_from(["a", "b"]), st.booleans()),
    max_size=16,
)


@settings(max_examples=40, deadline=None)
@given(_OPS)
def test_landed_is_true_exactly_for_the_writes_that_were_made(steps) -> None:
    from bunzai.store.graveyard import bury_piece, list_graveyard, restore_entry
    from bunzai.store.pieces import try_read

    with tempfile.TemporaryDirectory() as folder:
        studio, _ = init_studio(Path(folder) / "s")
        expected: list[bool] = []
        for n, (op, name, ghost) in enumerate(steps):
            stored = try_read(studio, "character", name)
            if op == "write":
                if ghost:
                    if stored is None:
                        append_change(studio, kind="character", id=name, revision="e" * 64, op="create")
                    else:
                        append_change(
                            studio, kind="character", id=name, revision="e" * 64, op="update", base=stored.revision
                        )
                elif stored is None:
                    create_piece(studio, piece(name, name=f"{name}{n}"))
                else:
                    update_piece(studio, piece(name, name=f"{name}{n}"), stored.revision)
            elif op in ("delete", "bury"):
                if stored is None:
                    continue
                if ghost:
                    append_change(studio, kind="character", id=name, revision=stored.revision, op=op)
                elif op == "delete":
                    delete_piece(studio, "character", name, stored.revision)
                else:
                    bury_piece(studio, "character", name, stored.revision)
            else:
                graves = [row for row in list_graveyard(studio) if row["id"] == name]
                if stored is not None or not graves:
                    continue
                if ghost:
                    append_change(studio, kind="character", id=name, revision=graves[0]["revision"], op="restore")
                else:
                    restore_entry(studio, graves[0]["entry"])
            expected.append(not ghost)
        assert landed(studio, list(entries_from(studio))) == expected
