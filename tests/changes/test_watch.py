"""`studio_changes` (a session's cursor on the change log) and `studio_wait` (declarative waits)."""

from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai import limits
from bunzai.changes.watch import studio_changes, studio_wait
from bunzai.errors import BunzaiError
from bunzai.store.changelog import annotated, append_change
from bunzai.store.cursors import cursor_path
from bunzai.store.pieces import create_piece, read_stored, update_piece
from bunzai.store.studio import Studio, init_studio


@pytest.fixture
def studio(tmp_path: Path) -> Studio:
    made, _ = init_studio(tmp_path / "studio")
    return made


def write(studio: Studio, session: str, piece_id: str, name: str | None = None) -> int:
    """A create (or, when the piece exists, an update) made by `session`; returns its seq."""
    data = {"kind": "character", "id": piece_id, "name": name or piece_id}
    with annotated(session=session):
        path = studio.piece_path("character", piece_id)
        if path.exists():
            return update_piece(studio, data, read_stored(studio, "character", piece_id).revision).seq
        return create_piece(studio, data).seq


def seqs(doc: dict) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for change in doc["items"]:
        found.setdefault(change["session"], []).append(change["seq"])
    return found


def test_a_first_read_reports_nothing_and_sets_the_cursor_at_the_head(studio: Studio) -> None:
    write(studio, "person", "ada")
    write(studio, "person", "bob")
    doc = studio_changes(studio, "agent")
    assert doc["basis"] == "first-read" and doc["head"] == 2 and doc["items"] == [] and doc["next"] == 2
    assert json.loads(cursor_path(studio, "agent").read_text())["seq"] == 2


def test_later_changes_are_reported_once_with_their_sessions(studio: Studio) -> None:
    studio_changes(studio, "agent")
    write(studio, "person", "ada")
    write(studio, "agent", "bob")
    write(studio, "person", "ada", "Ada 2")
    doc = studio_changes(studio, "agent")
    assert doc["basis"] == "since-cursor" and doc["since"] == 0 and doc["count"] == 3
    assert seqs(doc) == {"person": [1, 3], "agent": [2]}
    assert [(c["seq"], c["mine"]) for c in doc["items"]] == [(1, False), (2, True), (3, False)]
    again = studio_changes(studio, "agent")
    assert again["basis"] == "since-cursor" and again["count"] == 0 and again["since"] == 3


def test_an_explicit_since_reports_from_there_and_leaves_the_cursor(studio: Studio) -> None:
    studio_changes(studio, "agent")
    for name in ("a", "b", "c"):
        write(studio, "person", name)
    doc = studio_changes(studio, "agent", since=1)
    assert doc["basis"] == "since-seq" and seqs(doc) == {"person": [2, 3]}
    assert studio_changes(studio, "agent")["count"] == 3  # the cursor had not moved
    beyond = studio_changes(studio, "agent", since=99)
    assert beyond["basis"] == "resync" and beyond["items"] == []
    with pytest.raises(BunzaiError) as caught:
        studio_changes(studio, "agent", since=-1)
    assert caught.value.code == "invalid_input"


def test_a_log_moved_aside_or_rewritten_is_a_resync(studio: Studio) -> None:
    write(studio, "person", "a")
    studio_changes(studio, "agent")
    write(studio, "person", "b")
    studio_changes(studio, "agent")
    os.rename(studio.changes_log, studio.changes_log.with_name("old.jsonl"))
    append_change(studio, kind="character", id="z", revision=None, op="delete")
    doc = studio_changes(studio, "agent")
    assert doc["basis"] == "resync" and doc["head"] == 1 and doc["items"] == []
    write(studio, "person", "c")
    assert seqs(studio_changes(studio, "agent")) == {"person": [2]}


def test_a_log_rewritten_with_the_same_records_shifted_continues(studio: Studio) -> None:
    write(studio, "person", "a")
    studio_changes(studio, "agent")
    write(studio, "person", "b")
    studio.changes_log.write_bytes(b"\n\n" + studio.changes_log.read_bytes())  # offsets move, records stay
    assert seqs(studio_changes(studio, "agent")) == {"person": [2]}


def test_a_damaged_cursor_is_a_resync_and_an_unsafe_session_is_refused(studio: Studio) -> None:
    studio_changes(studio, "agent")
    cursor_path(studio, "agent").write_text("{not json")
    assert studio_changes(studio, "agent")["basis"] == "resync"
    for bad in ("../x", "", "a/b", "x" * 65, ".hidden"):
        with pytest.raises(BunzaiError) as caught:
            studio_changes(studio, bad)
        assert caught.value.code == "invalid_input"


def test_a_logged_write_that_never_landed_is_not_reported(studio: Studio) -> None:
    studio_changes(studio, "agent")
    write(studio, "person", "ada")
    with annotated(session="ghost"):
        append_change(studio, kind="character", id="bob", revision="e" * 64, op="create")  # its writer died
    doc = studio_changes(studio, "agent")
    assert seqs(doc) == {"person": [1]} and doc["not_landed"] == 1 and doc["next"] == 2


def test_a_long_backlog_is_reported_a_page_at_a_time(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "CHANGES_MAX_REPORTED", 2)
    studio_changes(studio, "agent")
    for name in "abcde":
        write(studio, "person", name)
    pages = []
    while True:
        doc = studio_changes(studio, "agent")
        pages.append(seqs(doc).get("person", []))
        if not doc["truncated"]:
            break
    assert pages == [[1, 2], [3, 4], [5]]


# A property: whatever the interleaving of writes, reads and log resets, every landed change
# made after a reader's first read (or last resync) is reported to it exactly once, in order.
_STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("write"), st.sampled_from(["p", "q"]), st.sampled_from(["a", "b", "c"])),
        st.tuples(st.just("read"), st.sampled_from(["r1", "r2"]), st.none()),
        st.tuples(st.just("ghost"), st.none(), st.sampled_from(["a", "z"])),
        st.tuples(st.just("reset"), st.none(), st.none()),
    ),
    max_size=14,
)


@settings(max_examples=30, deadline=None)
@given(_STEPS)
def test_every_landed_change_after_the_first_read_is_reported_once(steps) -> None:
    with tempfile.TemporaryDirectory() as folder:
        studio, _ = init_studio(Path(folder) / "s")
        owed: dict[str, list[int] | None] = {"r1": None, "r2": None}  # None: not reading yet
        reset_since = {"r1": False, "r2": False}
        for action, who, what in steps:
            if action == "write":
                seq = write(studio, who, what, f"{what}{len(steps)}{id(steps)}")
                for pending in owed.values():
                    if pending is not None:
                        pending.append(seq)
            elif action == "ghost":  # a writer that logged its intent and died before its rename
                on_disk = studio.piece_path("character", what)
                with annotated(session="ghost"):
                    if on_disk.exists():
                        base = read_stored(studio, "character", what).revision
                        append_change(studio, kind="character", id=what, revision="e" * 64, op="update", base=base)
                    else:
                        append_change(studio, kind="character", id=what, revision="e" * 64, op="create")
            elif action == "reset":  # the log moved aside: what it held is gone, and may be resynced over
                if studio.changes_log.exists():
                    os.replace(studio.changes_log, Path(folder) / "aside.jsonl")
                for reader, pending in owed.items():
                    if pending is not None:
                        owed[reader], reset_since[reader] = [], True
            else:
                doc = studio_changes(studio, who)
                got = [c["seq"] for c in doc["items"]]
                if owed[who] is None:
                    assert doc["basis"] == "first-read" and got == []
                elif doc["basis"] == "resync":
                    assert reset_since[who] and got == []
                else:
                    assert doc["basis"] == "since-cursor" and got == owed[who]  # in seq order
                owed[who], reset_since[who] = [], False


# --- studio_wait -------------------------------------------------------------------------


def test_a_timeout_is_an_answer(studio: Studio) -> None:
    doc = studio_wait(studio, changed_since=0, timeout=0.1)
    assert doc["met"] is False and doc["condition"] == {"changed_since": 0} and doc["head"] == 0


def test_a_condition_already_true_answers_at_once(studio: Studio) -> None:
    seq = write(studio, "person", "ada")
    revision = read_stored(studio, "character", "ada").revision
    assert studio_wait(studio, changed_since=0, timeout=0)["change"]["seq"] == seq
    assert studio_wait(studio, piece_exists="ada", timeout=0)["ref"] == "character/ada"
    assert studio_wait(studio, piece_exists="character/ada", timeout=0)["met"] is True
    assert studio_wait(studio, piece_exists="lorebook/ada", timeout=0)["met"] is False
    assert studio_wait(studio, revision_changed=f"ada@{revision}", timeout=0)["met"] is False
    assert studio_wait(studio, revision_changed=f"ada@{'0' * 64}", timeout=0)["revision"] == revision
    gone = studio_wait(studio, revision_changed=f"character/bob@{'0' * 64}", timeout=0)
    assert gone["met"] is True and gone["exists"] is False


def test_wait_returns_when_another_thread_writes(studio: Studio) -> None:
    write(studio, "person", "ada")
    timer = threading.Timer(0.3, lambda: write(studio, "person", "bob"))
    timer.start()
    try:
        doc = studio_wait(studio, changed_since=1, timeout=limits.WAIT_MAX_SECONDS)
    finally:
        timer.join()
    assert doc["met"] is True and doc["change"]["ref"] == "character/bob" and doc["change"]["session"] == "person"


def test_wait_does_not_answer_for_an_intent_that_never_landed(studio: Studio) -> None:
    with annotated(session="ghost"):
        append_change(studio, kind="character", id="bob", revision="e" * 64, op="create")
    assert studio_wait(studio, changed_since=0, timeout=0.1)["met"] is False


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"changed_since": 1, "piece_exists": "ada"},
        {"changed_since": -1},
        {"changed_since": True},
        {"piece_exists": "../x"},
        {"piece_exists": "nokind/ada"},
        {"revision_changed": "ada"},
        {"revision_changed": "ada@abc"},
        {"changed_since": 0, "timeout": 56},
        {"changed_since": 0, "timeout": -1},
    ],
)
def test_a_malformed_condition_is_refused_before_waiting(studio: Studio, kwargs: dict) -> None:
    with pytest.raises(BunzaiError) as caught:
        studio_wait(studio, **kwargs)
    assert caught.value.code in ("invalid_input", "invalid_id", "unknown_kind")


def test_the_library_functions_take_a_studio_path_as_well(studio: Studio) -> None:
    assert studio_changes(str(studio.root), "agent")["basis"] == "first-read"
    assert studio_wait(studio.root, changed_since=0, timeout=0)["met"] is False
    with pytest.raises(BunzaiError) as caught:
        studio_changes(str(studio.root / "nowhere"), "agent")
    assert caught.value.code == "studio_missing"


def test_wait_reads_a_log_moved_aside_and_started_again_from_its_start(studio: Studio) -> None:
    write(studio, "person", "a")
    write(studio, "person", "b")
    assert studio_wait(studio, changed_since=2, timeout=0)["met"] is False

    def restart() -> None:
        os.replace(studio.changes_log, studio.changes_log.with_name("old.jsonl"))
        write(studio, "person", "c")  # seq 1 of the new log
        write(studio, "person", "d")
        write(studio, "person", "e")  # seq 3: above 2

    timer = threading.Timer(0.3, restart)
    timer.start()
    try:
        doc = studio_wait(studio, changed_since=2, timeout=limits.WAIT_MAX_SECONDS)
    finally:
        timer.join()
    assert doc["met"] is True and doc["change"]["ref"] == "character/e"
