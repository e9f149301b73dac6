"""A buried piece's media are checked as a live piece's are: `graveyard restore` brings the
piece back as it was buried, so a medium gone from assets/ would come back missing."""

from __future__ import annotations

from pathlib import Path

from bunzai.store.assets import put_asset
from bunzai.store.doctor import examine
from bunzai.store.graveyard import bury_piece
from bunzai.store.pieces import create_piece
from bunzai.store.studio import Studio


def test_a_buried_piece_whose_medium_is_gone_is_a_missing_asset(studio: Studio) -> None:
    face = put_asset(studio, b"a face", "png", "image/png")
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada", "body": {"portrait": face}})
    create_piece(studio, {"kind": "lorebook", "id": "lore", "name": "Lore"})
    bury_piece(studio, "character", "ada")
    bury_piece(studio, "lorebook", "lore")
    assert examine(studio)["clean"]
    studio.asset_path(face["sha256"], "png").unlink()
    problems = examine(studio, repair=True)["problems"]
    assert [(p["check"], p["asset"]) for p in problems] == [("missing_asset", f"{face['sha256']}.png")]
    entry = Path(problems[0]["path"])
    assert entry.parent == studio.graveyard_dir / "character" and entry.name.startswith("ada@")
    assert problems[0]["message"].startswith(f"buried character/{entry.name.removesuffix('.json')} refers to assets/")


def test_a_buried_piece_that_does_not_validate_is_a_graveyard_problem(studio: Studio) -> None:
    """A restore would bring back a piece that does not validate; and one changed byte of a hash
    in it (a bit flipped) would otherwise leave its medium an orphan, removed by repair."""
    face = put_asset(studio, b"a face", "png", "image/png")
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada", "body": {"portrait": face}})
    bury_piece(studio, "character", "ada")
    (entry,) = (studio.graveyard_dir / "character").iterdir()
    raw = entry.read_text()
    entry.write_text(raw.replace(face["sha256"], "q" + face["sha256"][1:]))
    report = examine(studio, repair=True)
    assert sorted(p["check"] for p in report["problems"]) == ["graveyard", "orphan_asset"]
    (row,) = [p for p in report["problems"] if p["check"] == "graveyard"]
    assert "does not validate" in row["message"] and report["repaired"] == []
    entry.write_text(raw)
    assert examine(studio)["clean"]
