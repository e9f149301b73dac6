"""History prunes the revisions kept longest ago; a revision kept again (a piece put back to an
earlier state, then edited on) is as new as that keeping, so the newest undos stay possible."""

from __future__ import annotations

import os

from bunzai import limits
from bunzai.changes.revert import studio_revert
from bunzai.store.changelog import annotated
from bunzai.store.history import piece_history_dir
from bunzai.store.pieces import create_piece, read_stored, update_piece
from bunzai.store.studio import Studio


def set_name(studio: Studio, name: str) -> None:
    stored = read_stored(studio, "character", "ada")
    with annotated(session="agent"):
        update_piece(studio, {**stored.data, "name": name}, stored.revision)
    # the file system's clock may not tick between quick writes: age the kept files in the order
    # they were last touched, so the order pruning sees is the one the writes made
    folder = piece_history_dir(studio, "character", "ada")
    kept = sorted(folder.iterdir(), key=lambda path: (path.stat().st_mtime_ns, path.name))
    for age, path in enumerate(kept):
        os.utime(path, ns=(10**18 + age * 10**9, 10**18 + age * 10**9))


def test_a_revision_kept_again_outlives_older_ones(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "HISTORY_PER_PIECE", 3)
    with annotated(session="person"):
        create_piece(studio, {"kind": "character", "id": "ada", "name": "A"})
    for name in ("B", "A", "C", "D", "E"):  # the update to C keeps A a second time
        set_name(studio, name)
    doc = studio_revert(studio, "agent")
    assert [row["status"] for row in doc["changes"]][:4] == ["reverted", "reverted", "reverted", "unavailable"]
    assert read_stored(studio, "character", "ada").data["name"] == "A"  # back to before the update to C
