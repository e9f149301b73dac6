"""`studio_revert`: a session's own landed changes undone newest first, through the write doors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bunzai.changes.apply import apply_draft
from bunzai.changes.create import create_draft
from bunzai.changes.draft import new_draft
from bunzai.changes.lifecycle import bury_ref, delete_ref, restore_entry
from bunzai.changes.revert import studio_revert
from bunzai.changes.watch import studio_changes
from bunzai.store.changelog import annotated, append_change, read_changes
from bunzai.store.history import piece_history_dir
from bunzai.store.pieces import list_stored, read_stored, try_read
from bunzai.store.studio import Studio, init_studio


@pytest.fixture
def studio(tmp_path: Path) -> Studio:
    made, _ = init_studio(tmp_path / "studio")
    return made


def create(studio: Studio, session: str, name: str) -> dict:
    with annotated(session=session):
        return apply_draft(studio, create_draft("character", {"name": name}))


def rename(studio: Studio, session: str, piece_id: str, name: str) -> dict:
    stored = read_stored(studio, "character", piece_id)
    draft = new_draft(
        mode="update",
        proposed={**stored.data, "name": name},
        baseline=stored.revision,
        before=stored.data,
        operations=[],
    )
    with annotated(session=session):
        return apply_draft(studio, draft)


def name_of(studio: Studio, piece_id: str) -> str | None:
    stored = try_read(studio, "character", piece_id)
    return stored.data["name"] if stored else None


def statuses(doc: dict) -> list[tuple[int, str]]:
    return [(row["seq"], row["status"]) for row in doc["changes"]]


def test_updates_and_a_create_are_undone_newest_first(studio: Studio) -> None:
    create(studio, "me", "Ada")  # 1
    rename(studio, "me", "ada", "Ada 2")  # 2
    rename(studio, "me", "ada", "Ada 3")  # 3
    doc = studio_revert(studio, "me")
    assert statuses(doc) == [(3, "reverted"), (2, "reverted"), (1, "reverted")]
    assert doc["reverted"] == 3 and doc["forbidden"] == doc["unavailable"] == doc["failed"] == 0
    assert list_stored(studio) == []  # the create was undone by burying the piece
    records = read_changes(studio)[3:]
    assert [(r["op"], r["session"], r["revert_of"]) for r in records] == [
        ("update", "me", 3),
        ("update", "me", 2),
        ("bury", "me", 1),
    ]
    assert studio_revert(studio, "me")["changes"] == []  # a revert is not undone by the next one


def test_another_sessions_later_change_is_left_and_named(studio: Studio) -> None:
    create(studio, "me", "Ada")  # 1
    rename(studio, "me", "ada", "Mine")  # 2
    create(studio, "me", "Bob")  # 3
    rename(studio, "me", "bob", "Bob 2")  # 4
    rename(studio, "other", "ada", "Theirs")  # 5
    doc = studio_revert(studio, "me")
    assert statuses(doc) == [(4, "reverted"), (3, "reverted"), (2, "forbidden"), (1, "forbidden")]
    forbidden = doc["changes"][2]
    assert forbidden["code"] == "revert_forbidden" and forbidden["by"] == {"session": "other", "seq": 5}
    assert name_of(studio, "ada") == "Theirs" and name_of(studio, "bob") is None


def test_a_hand_edit_since_is_forbidden(studio: Studio) -> None:
    create(studio, "me", "Ada")
    rename(studio, "me", "ada", "Ada 2")
    path = studio.piece_path("character", "ada")
    path.write_text(path.read_text().replace("Ada 2", "By hand"))
    doc = studio_revert(studio, "me")
    assert [row["status"] for row in doc["changes"]] == ["forbidden", "forbidden"]
    assert name_of(studio, "ada") == "By hand"


def test_history_no_longer_held_is_unavailable(studio: Studio) -> None:
    create(studio, "me", "Ada")
    rename(studio, "me", "ada", "Ada 2")
    for kept in piece_history_dir(studio, "character", "ada").iterdir():
        kept.unlink()
    doc = studio_revert(studio, "me")
    assert doc["changes"][0]["status"] == "unavailable" and doc["changes"][0]["code"] == "revert_unavailable"
    assert name_of(studio, "ada") == "Ada 2"  # and the create behind it is not undone under an edit
    assert doc["changes"][1]["status"] == "forbidden"


def test_a_delete_is_undone_from_history_and_a_burial_from_the_graveyard(studio: Studio) -> None:
    create(studio, "other", "Ada")
    create(studio, "other", "Bob")
    with annotated(session="me"):
        delete_ref(studio, "character/ada", None)
        bury_ref(studio, "character/bob", None)
    doc = studio_revert(studio, "me")
    assert [row["status"] for row in doc["changes"]] == ["reverted", "reverted"]
    assert name_of(studio, "ada") == "Ada" and name_of(studio, "bob") == "Bob"


def test_a_restore_is_undone_by_burying_again(studio: Studio) -> None:
    create(studio, "other", "Ada")
    buried = bury_ref(studio, "character/ada", None)
    with annotated(session="me"):
        restore_entry(studio, buried["entry"])
    assert studio_revert(studio, "me")["reverted"] == 1
    assert name_of(studio, "ada") is None


def test_an_intent_that_never_landed_is_not_reverted(studio: Studio) -> None:
    create(studio, "other", "Ada")
    stored = read_stored(studio, "character", "ada")
    with annotated(session="me"):
        append_change(studio, kind="character", id="ada", revision="f" * 64, op="update", base=stored.revision)
    assert studio_revert(studio, "me")["changes"] == []
    assert name_of(studio, "ada") == "Ada"


def test_revert_records_are_reported_as_the_sessions_changes(studio: Studio) -> None:
    studio_changes(studio, "watcher")
    create(studio, "me", "Ada")
    studio_revert(studio, "me")
    rows = studio_changes(studio, "watcher")["items"]
    assert [(row["op"], row.get("revert_of")) for row in rows] == [("create", None), ("bury", 1)]
