"""`list_graveyard` at library size: rows from names and stats, revisions kept in
`.bunzai/graveyard.json`, so a listing reads only the entries buried or changed since the last."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime, UTC

import pytest
from hypothesis import given, settings, strategies as st

from bunzai.store import graveyard
from bunzai.store.graveyard import bury_piece, list_graveyard, parse_entry, restore_entry
from bunzai.store.pieces import create_piece
from bunzai.store.studio import Studio


@pytest.fixture
def settled_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every entry counts as older than the racy margin: a test's files are all fresh, and
    waiting out `limits.INDEX_RACY_SECONDS` would only slow the test."""
    monkeypatch.setattr(graveyard.limits, "INDEX_RACY_SECONDS", -60.0)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the graveyard files `list_graveyard` opens."""
    opened: list[str] = []
    real = graveyard.read_raw

    def counting(path, *, what):
        if "Graveyard" in str(path):
            opened.append(what)
        return real(path, what=what)

    monkeypatch.setattr(graveyard, "read_raw", counting)
    return opened


def bury(studio: Studio, piece_id: str, name: str = "Ada") -> str:
    create_piece(studio, {"kind": "character", "id": piece_id, "name": name})
    return bury_piece(studio, "character", piece_id)["entry"]


def grave_of(studio: Studio, entry: str):
    kind, piece_id, stamp = parse_entry(entry)
    return graveyard.entry_path(studio, kind, piece_id, stamp)


def test_a_second_listing_reads_no_entry_and_answers_the_same(studio: Studio, settled_now, reads) -> None:
    entries = [bury(studio, f"ada-{n}") for n in range(5)]
    first = list_graveyard(studio)
    assert sorted(reads) == sorted(grave_of(studio, entry).name for entry in entries)
    reads.clear()
    assert list_graveyard(studio) == first
    assert reads == []
    for row in first:
        assert row["revision"] == hashlib.sha256(grave_of(studio, row["entry"]).read_bytes()).hexdigest()


def test_only_the_entry_buried_since_is_read(studio: Studio, settled_now, reads) -> None:
    bury(studio, "ada")
    list_graveyard(studio)
    reads.clear()
    new = bury(studio, "bob")
    rows = list_graveyard(studio)
    assert reads == [grave_of(studio, new).name] and len(rows) == 2


def test_an_entry_edited_by_hand_is_read_again(studio: Studio, settled_now) -> None:
    entry = bury(studio, "ada")
    list_graveyard(studio)
    grave = grave_of(studio, entry)
    raw = grave.read_bytes()
    edited = raw.replace(b'"Ada"', b'"Eve"')  # the same size: only the stat's times tell
    assert len(edited) == len(raw)
    before = os.stat(grave)
    grave.write_bytes(edited)
    os.utime(grave, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    (row,) = list_graveyard(studio)
    assert row["revision"] == hashlib.sha256(edited).hexdigest()


def test_a_young_entry_is_not_trusted_by_its_stat(studio: Studio, reads, monkeypatch) -> None:
    """An entry younger than the racy margin is read each time, since a hand edit in the same
    clock tick could keep its stat (the margin is made an hour, so the test's pace cannot matter)."""
    monkeypatch.setattr(graveyard.limits, "INDEX_RACY_SECONDS", 3600.0)
    bury(studio, "ada")
    list_graveyard(studio)
    list_graveyard(studio)
    assert len(reads) == 2
    assert not (studio.state_dir / graveyard.REVISIONS_FILE).exists()


def test_restored_entries_leave_the_cache_and_a_damaged_cache_is_rebuilt(studio: Studio, settled_now) -> None:
    kept, restored = bury(studio, "ada"), bury(studio, "bob")
    list_graveyard(studio)
    cache = studio.state_dir / graveyard.REVISIONS_FILE
    assert set(json.loads(cache.read_bytes())["entries"]) == {kept, restored}
    restore_entry(studio, restored)
    assert [row["entry"] for row in list_graveyard(studio)] == [kept]
    assert set(json.loads(cache.read_bytes())["entries"]) == {kept}
    cache.write_bytes(b"{not json")
    assert [row["entry"] for row in list_graveyard(studio)] == [kept]
    assert set(json.loads(cache.read_bytes())["entries"]) == {kept}


def test_a_studio_that_cannot_hold_the_cache_is_still_listed(studio: Studio, settled_now) -> None:
    entry = bury(studio, "ada")
    state = studio.state_dir
    moved = state.with_name("state-elsewhere")
    state.rename(moved)
    state.write_text("a file where the folder was")
    try:
        assert [row["entry"] for row in list_graveyard(studio)] == [entry]
    finally:
        state.unlink()
        moved.rename(state)


def test_a_pipe_under_an_entry_name_is_listed_as_damaged_without_opening_it(studio: Studio) -> None:
    entry = bury(studio, "ada")
    stamp = entry.split("@")[1]
    os.mkfifo(studio.graveyard_dir / "character" / f"eve@{stamp}.json")  # opened, it would wait for a writer
    (studio.graveyard_dir / "character" / f"bob@{stamp}.json").mkdir()
    rows = {row["entry"]: row for row in list_graveyard(studio)}
    assert rows[entry]["revision"]
    for other in ("eve", "bob"):
        row = rows[f"character/{other}@{stamp}"]
        assert row["revision"] is None and "not a regular file" in row["damaged"]


@settings(max_examples=200, deadline=None)
@given(st.datetimes(min_value=datetime(1000, 1, 1), max_value=datetime(9999, 12, 31)))
def test_stamps_read_back_as_strptime_reads_them(moment: datetime) -> None:
    stamp = moment.strftime(graveyard.STAMP_FORMAT)
    expected = datetime.strptime(stamp, graveyard.STAMP_FORMAT).replace(tzinfo=UTC)
    assert graveyard._stamp_time(stamp) == expected
    assert graveyard._iso(stamp) == expected.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@pytest.mark.parametrize("stamp", ["20261301T000000000000Z", "20260230T000000000000Z", "20260101T240000000000Z"])
def test_an_impossible_stamp_is_no_entry(stamp: str) -> None:
    assert graveyard._stamp_time(stamp) is None
    with pytest.raises(Exception, match="not a graveyard entry"):
        parse_entry(f"character/ada@{stamp}")


def test_listing_is_newest_first_across_old_and_new_entries(studio: Studio, settled_now) -> None:
    older = bury(studio, "ada")
    list_graveyard(studio)
    newer = bury(studio, "bob")
    assert [row["entry"] for row in list_graveyard(studio)] == [newer, older]
