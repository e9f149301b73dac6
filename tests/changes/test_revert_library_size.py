"""`studio_revert` of a long session: each run gets on with the changes it can undo (a session
whose newest changes others overtook used to be refused the same rows run after run), and
the work grows with the log, not with the log times the changes undone."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest

from bunzai import limits
from bunzai.changes.apply import apply_batch
from bunzai.changes.create import create_draft
from bunzai.changes.draft import new_draft
from bunzai.changes.lifecycle import bury_ref
from bunzai.changes.revert import revert_refusal, studio_revert
from bunzai.store import feed, graveyard
from bunzai.store.changelog import annotated
from bunzai.store.locks import lock_path
from bunzai.store.pieces import list_stored, read_stored
from bunzai.store.studio import Studio, init_studio

LIMIT = 4


@pytest.fixture
def studio(tmp_path: Path) -> Studio:
    made, _ = init_studio(tmp_path / "studio")
    return made


def create(studio: Studio, session: str, names: list[str]) -> None:
    with annotated(session=session):
        done = apply_batch(studio, [create_draft("character", {"name": name}) for name in names])
    assert all(receipt["status"] == "applied" for receipt in done)


def rename(studio: Studio, session: str, piece_ids: list[str], name: str) -> None:
    drafts = []
    for piece_id in piece_ids:
        stored = read_stored(studio, "character", piece_id)
        proposed = {**stored.data, "name": name}
        drafts.append(
            new_draft(mode="update", proposed=proposed, baseline=stored.revision, before=stored.data, operations=[])
        )
    with annotated(session=session):
        done = apply_batch(studio, drafts)
    assert all(receipt["status"] == "applied" for receipt in done)


def name_of(studio: Studio, piece_id: str) -> str:
    return read_stored(studio, "character", piece_id).data["name"]


def test_changes_others_overtook_do_not_keep_a_run_from_the_older_ones(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "REVERT_MAX_CHANGES", LIMIT)
    create(studio, "person", ["Old 1", "Old 2", "New 1", "New 2", "New 3", "New 4", "New 5"])
    rename(studio, "agent", ["old-1", "old-2"], "agent's")  # older: still the agent's to undo
    crowded = ["new-1", "new-2", "new-3", "new-4", "new-5"]
    rename(studio, "agent", crowded, "agent's")  # newest: then overtaken by the person
    rename(studio, "person", crowded, "person's")
    first = studio_revert(studio, "agent")
    assert (first["reverted"], first["truncated"]) == (2, True)
    assert name_of(studio, "old-1") == "Old 1" and name_of(studio, "old-2") == "Old 2"
    assert all(name_of(studio, piece_id) == "person's" for piece_id in crowded)
    assert "leaves them" in first["note"]  # running again would undo nothing more
    again = studio_revert(studio, "agent")
    assert again["reverted"] == 0 and again["forbidden"] == LIMIT


def test_pieces_edited_by_hand_do_not_keep_a_run_from_the_others(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "REVERT_MAX_CHANGES", LIMIT)
    create(studio, "agent", ["Kept"])
    create(studio, "agent", [f"Hand {n}" for n in range(LIMIT + 1)])
    for n in range(LIMIT + 1):
        path = studio.piece_path("character", f"hand-{n}")
        path.write_text(json.dumps({**json.loads(path.read_text("utf-8")), "name": "mine"}), encoding="utf-8")
    doc = studio_revert(studio, "agent")
    assert doc["reverted"] == 1 and doc["forbidden"] == LIMIT - 1
    assert ("character", "kept") not in list_stored(studio)  # its create undone: buried
    assert {row["ref"] for row in doc["changes"] if row["status"] == "reverted"} == {"character/kept"}


def test_a_long_run_matches_each_change_to_its_piece_once(studio: Studio, monkeypatch) -> None:
    names = [f"Char {n}" for n in range(60)]
    create(studio, "person", names)
    ids = [name.lower().replace(" ", "-") for name in names]
    rename(studio, "agent", ids, "agent's")
    reads = [0]
    original = feed.Entry.piece

    def counted(entry):
        reads[0] += 1
        return original.fget(entry)

    monkeypatch.setattr(feed.Entry, "piece", property(counted))
    doc = studio_revert(studio, "agent")
    assert doc["reverted"] == len(ids)
    assert reads[0] < 20 * len(ids)  # was every change undone against every record: 60 x 120


def test_undoing_burials_reads_only_the_buried_pieces_entries(studio: Studio, monkeypatch) -> None:
    names = [f"Char {n}" for n in range(30)]
    create(studio, "person", names)
    with annotated(session="agent"):
        for name in names:
            assert bury_ref(studio, name.lower().replace(" ", "-"), None)["status"] == "applied"
    reads = [0]
    original = graveyard.read_raw

    def counted(path, **kwargs):
        reads[0] += 1
        return original(path, **kwargs)

    monkeypatch.setattr(graveyard, "read_raw", counted)
    doc = studio_revert(studio, "agent")
    assert doc["reverted"] == len(names) and not list(studio.graveyard_dir.glob("*/*.json"))
    assert reads[0] <= 2 * len(names)  # its entry, then its restore: was the whole graveyard per burial


def test_an_undo_refused_by_a_held_lock_is_a_failed_row_and_the_others_go_on(studio: Studio, monkeypatch) -> None:
    create(studio, "agent", ["Ada"])
    create(studio, "agent", ["Bob"])  # newest: undone first, but a stuck writer holds its lock
    monkeypatch.setattr(limits, "LOCK_TIMEOUT_SECONDS", 0.05)
    held = os.open(lock_path(studio, "character/bob"), os.O_RDWR | os.O_CREAT)
    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        doc = studio_revert(studio, "agent")
    finally:
        os.close(held)
    assert [(row["ref"], row["status"]) for row in doc["changes"]] == [
        ("character/bob", "failed"),
        ("character/ada", "reverted"),
    ]
    assert doc["changes"][0]["receipt"]["reason"] == "lock_timeout"
    assert revert_refusal(doc).code == "lock_timeout"
    assert list_stored(studio) == [("character", "bob")]


def test_a_run_that_says_run_again_undoes_something_when_history_is_pruned(studio: Studio, monkeypatch) -> None:
    """History keeps the newest revisions of a piece: the older updates' undos have nothing to
    put back. A note that says to run again must lead somewhere, or an agent loops forever."""
    monkeypatch.setattr(limits, "REVERT_MAX_CHANGES", 3)
    create(studio, "person", ["Worked"])
    for n in range(limits.HISTORY_PER_PIECE + 8):
        rename(studio, "agent", ["worked"], f"take {n}")
    for _ in range(40):
        doc = studio_revert(studio, "agent")
        if "run revert again" not in doc.get("note", ""):
            break
        assert doc["reverted"] > 0, doc["note"]
    else:
        pytest.fail("revert kept asking to run again")
    assert "nothing left to put back" in doc.get("note", "") or not doc["truncated"]


def test_a_run_split_by_the_limit_keeps_what_the_next_run_puts_back(studio: Studio, monkeypatch) -> None:
    """The first run's own writes keep revisions in history; the ones the changes it left for
    the next run put back must not be pruned to make room, or 'run revert again' undoes nothing."""
    monkeypatch.setattr(limits, "REVERT_MAX_CHANGES", 3)
    monkeypatch.setattr(limits, "HISTORY_PER_PIECE", 4)
    create(studio, "agent", ["Worked"])
    for n in range(4):
        rename(studio, "agent", ["worked"], f"take {n}")
    first = studio_revert(studio, "agent")
    assert first["reverted"] == 3 and "run revert again" in first["note"]
    second = studio_revert(studio, "agent")
    assert (second["reverted"], second["unavailable"], second["forbidden"]) == (2, 0, 0)
    assert ("character", "worked") not in list_stored(studio)  # its create undone too: buried
