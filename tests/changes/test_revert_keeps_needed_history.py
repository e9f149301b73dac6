"""A long revert of one piece: its own writes keep revisions, and that must not prune the ones
its later undos put back (`history.needed_by_revert`)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai import limits
from bunzai.changes.apply import apply_draft
from bunzai.changes.create import create_draft
from bunzai.changes.draft import new_draft
from bunzai.changes.revert import studio_revert
from bunzai.store.changelog import annotated
from bunzai.store.history import piece_history_dir
from bunzai.store.pieces import read_stored
from bunzai.store.studio import Studio, init_studio


def rename(studio: Studio, name: str) -> None:
    stored = read_stored(studio, "character", "ada")
    draft = new_draft(
        mode="update",
        proposed={**stored.data, "name": name},
        baseline=stored.revision,
        before=stored.data,
        operations=[],
    )
    with annotated(session="agent"):
        assert apply_draft(studio, draft)["status"] == "applied"


def revert_after(root: Path, updates: int) -> dict:
    studio, _ = init_studio(root)
    with annotated(session="person"):
        apply_draft(studio, create_draft("character", {"name": "Ada"}))
    for n in range(updates):
        rename(studio, f"Ada {n}")
    return studio_revert(studio, "agent")


def test_every_update_history_holds_is_reverted(tmp_path: Path) -> None:
    # history holds the bases of the newest 32 updates; the revert's first write keeps the
    # current bytes as a 33rd revision, which used to prune the base the last undo needs
    doc = revert_after(tmp_path / "studio", limits.HISTORY_PER_PIECE + 8)
    assert (doc["reverted"], doc["unavailable"], doc["forbidden"], doc["failed"]) == (limits.HISTORY_PER_PIECE, 8, 0, 0)
    assert [row["seq"] for row in doc["changes"] if row["status"] == "unavailable"] == list(range(9, 1, -1))
    studio = Studio(tmp_path / "studio")
    assert read_stored(studio, "character", "ada").data["name"] == "Ada 7"  # back to before the oldest one reverted


def test_the_next_kept_revision_prunes_the_folder_back_to_the_limit(tmp_path: Path) -> None:
    revert_after(tmp_path / "studio", limits.HISTORY_PER_PIECE + 2)
    studio = Studio(tmp_path / "studio")
    folder = piece_history_dir(studio, "character", "ada")
    assert len(list(folder.iterdir())) == limits.HISTORY_PER_PIECE + 1  # the revert's one new revision
    rename(studio, "Ada again")  # keeps the current bytes: history holds them already
    assert len(list(folder.iterdir())) == limits.HISTORY_PER_PIECE + 1
    rename(studio, "Ada once more")  # keeps new bytes, and prunes
    assert len(list(folder.iterdir())) == limits.HISTORY_PER_PIECE


@settings(max_examples=15, deadline=None)
@given(per_piece=st.integers(1, 4), updates=st.integers(0, 7))
def test_a_revert_undoes_as_many_updates_as_history_keeps(per_piece: int, updates: int) -> None:
    saved = limits.HISTORY_PER_PIECE
    limits.HISTORY_PER_PIECE = per_piece
    try:
        with tempfile.TemporaryDirectory() as root:
            doc = revert_after(Path(root) / "studio", updates)
    finally:
        limits.HISTORY_PER_PIECE = saved
    assert doc["reverted"] == min(updates, per_piece)
    assert doc["unavailable"] == updates - min(updates, per_piece)
