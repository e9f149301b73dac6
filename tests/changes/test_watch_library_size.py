"""`changes` and `wait` over a long change log: the records after a full window are each looked
at once, not once per record of the window (which made `changes --since 0` over 20,000
records take seconds, and a `wait` overrun its timeout)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bunzai import limits
from bunzai.changes.watch import studio_changes, studio_wait
from bunzai.store import feed
from bunzai.store.studio import Studio, init_studio

WINDOW = 50
LATER = 1000  # records after the window, none of them of the window's pieces


@pytest.fixture
def studio(tmp_path: Path) -> Studio:
    made, _ = init_studio(tmp_path / "studio")
    lines = []
    for seq in range(1, WINDOW + LATER + 1):
        piece_id = f"p{seq}" if seq <= WINDOW else "busy"
        record = {"seq": seq, "time": "2026-12-01T00:00:00.000000Z", "session": "s", "kind": "character"}
        lines.append(json.dumps({**record, "id": piece_id, "revision": None, "op": "delete"}))
    made.changes_log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return made


@pytest.fixture
def piece_reads(monkeypatch) -> list[int]:
    """How often a record's piece was asked for (the work of matching records to the window)."""
    count = [0]
    original = feed.Entry.piece

    def counted(entry):
        count[0] += 1
        return original.fget(entry)

    monkeypatch.setattr(feed.Entry, "piece", property(counted))
    monkeypatch.setattr(limits, "CHANGES_MAX_REPORTED", WINDOW)
    return count


def test_a_page_reads_the_rest_of_the_log_once(studio: Studio, piece_reads: list[int]) -> None:
    doc = studio_changes(studio, "reader", 0)
    assert doc["truncated"] and doc["next"] == WINDOW
    assert piece_reads[0] < 4 * (WINDOW + LATER)  # was WINDOW * LATER: every later record against the window


def test_a_wait_reads_the_rest_of_the_log_once(studio: Studio, piece_reads: list[int]) -> None:
    doc = studio_wait(studio, changed_since=0, timeout=0)
    assert doc["met"] and doc["change"]["seq"] == 1
    assert piece_reads[0] < 4 * (WINDOW + LATER)
