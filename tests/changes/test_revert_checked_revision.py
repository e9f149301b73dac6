"""A revert's write holds the piece to the revision `studio_revert` checked: a piece changed
after that check (by another writer, or by hand) is refused by the write, never overwritten."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bunzai.changes import revert
from bunzai.changes.apply import apply_draft
from bunzai.changes.create import create_draft
from bunzai.changes.draft import new_draft
from bunzai.changes.revert import studio_revert
from bunzai.store.changelog import annotated
from bunzai.store.pieces import read_stored
from bunzai.store.studio import Studio, init_studio


@pytest.fixture
def studio(tmp_path: Path) -> Studio:
    made, _ = init_studio(tmp_path / "studio")
    return made


def test_a_piece_changed_between_the_check_and_the_undo_is_left_as_it_was_changed(studio: Studio, monkeypatch) -> None:
    with annotated(session="me"):
        apply_draft(studio, create_draft("character", {"name": "Ada"}))
        stored = read_stored(studio, "character", "ada")
        proposed = {**stored.data, "name": "Ada 2"}
        apply_draft(
            studio,
            new_draft(mode="update", proposed=proposed, baseline=stored.revision, before=stored.data, operations=[]),
        )
    path = studio.piece_path("character", "ada")
    meanwhile = json.dumps({**proposed, "name": "Theirs"}, indent=1) + "\n"
    real_read = revert.read_stored

    def read_after_someone_wrote(*args):
        path.write_text(meanwhile, encoding="utf-8")  # lands after revert checked the piece
        return real_read(*args)

    monkeypatch.setattr(revert, "read_stored", read_after_someone_wrote)
    doc = studio_revert(studio, "me")
    assert doc["changes"][0]["op"] == "update" and doc["changes"][0]["status"] == "forbidden"
    assert doc["changes"][0]["receipt"]["status"] == "stale"
    assert path.read_text(encoding="utf-8") == meanwhile
