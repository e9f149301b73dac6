"""The graveyard: burial keeps the exact bytes under a unique entry; restore is create-only."""

from __future__ import annotations

import pytest

from bunzai.errors import BunzaiError
from bunzai.store.changelog import read_changes
from bunzai.store.graveyard import bury_piece, list_graveyard, restore_entry
from bunzai.store.pieces import create_piece, read_stored, try_read
from bunzai.store.studio import Studio


def make(studio: Studio, piece_id: str = "ada", name: str = "Ada") -> None:
    create_piece(studio, {"kind": "character", "id": piece_id, "name": name})


def test_bury_moves_the_exact_bytes_to_a_stamped_entry(studio: Studio) -> None:
    make(studio)
    stored = read_stored(studio, "character", "ada")
    buried = bury_piece(studio, "character", "ada", stored.revision)
    assert try_read(studio, "character", "ada") is None
    kind_id, stamp = buried["entry"].split("@")
    assert kind_id == "character/ada" and len(stamp) == 22 and stamp.endswith("Z")
    grave = studio.graveyard_dir / "character" / f"ada@{stamp}.json"
    assert grave.read_bytes() == stored.raw
    assert buried["revision"] == stored.revision and buried["seq"] == 2
    assert read_changes(studio)[-1]["op"] == "bury"


def test_bury_is_stale_on_a_changed_revision_and_moves_nothing(studio: Studio, snapshot) -> None:
    make(studio)
    before = snapshot(studio.root)
    with pytest.raises(BunzaiError) as caught:
        bury_piece(studio, "character", "ada", "0" * 64)
    assert caught.value.code == "stale"
    assert snapshot(studio.root) == before
    with pytest.raises(BunzaiError) as caught:
        bury_piece(studio, "character", "nobody")
    assert caught.value.code == "not_found"


def test_graveyard_lists_unique_entries_newest_first(studio: Studio) -> None:
    entries = []
    for name in ("First", "Second", "Third"):
        make(studio, name=name)
        entries.append(bury_piece(studio, "character", "ada")["entry"])
    make(studio, "bob")
    entries.append(bury_piece(studio, "character", "bob")["entry"])
    assert len(set(entries)) == 4
    listed = list_graveyard(studio)
    assert [row["entry"] for row in listed] == entries[::-1]
    assert listed[0]["buried_at"].endswith("Z") and listed[0]["kind"] == "character" and listed[0]["id"] == "bob"


def test_restore_puts_the_same_bytes_back_and_removes_the_entry(studio: Studio) -> None:
    make(studio)
    stored = read_stored(studio, "character", "ada")
    buried = bury_piece(studio, "character", "ada")
    result = restore_entry(studio, buried["entry"])
    assert read_stored(studio, "character", "ada").raw == stored.raw
    assert result.revision == stored.revision and result.seq == 3
    assert list_graveyard(studio) == []
    assert [c["op"] for c in read_changes(studio)] == ["create", "bury", "restore"]
    with pytest.raises(BunzaiError) as caught:
        restore_entry(studio, buried["entry"])
    assert caught.value.code == "not_found"


def test_restore_is_refused_when_the_id_was_taken_since(studio: Studio, snapshot) -> None:
    make(studio)
    buried = bury_piece(studio, "character", "ada")
    make(studio, name="A new Ada")
    before = snapshot(studio.root)
    with pytest.raises(BunzaiError) as caught:
        restore_entry(studio, buried["entry"])
    assert caught.value.code == "occupied"
    assert snapshot(studio.root) == before
    assert read_stored(studio, "character", "ada").data["name"] == "A new Ada"


@pytest.mark.parametrize(
    "entry",
    [
        "../x",
        "/abs",
        "character/../x@20261130T051500123456Z",
        "character/..@20261130T051500123456Z",
        "character/x@../../y",
        "character/x@20261130T051500123456Z/../../z",
        "character/x@20261399T999999999999Z",
        "Character/x@20261130T051500123456Z",
        "character/X@20261130T051500123456Z",
        "character/x@20261130T051500123456Z.json",
        "character/x",
        "character/a\x00b@20261130T051500123456Z",
        "",
        "wizard/x@20261130T051500123456Z",
    ],
)
def test_restore_refuses_hostile_entry_names_before_any_file_operation(
    studio: Studio, entry: str, refused, snapshot
) -> None:
    before = snapshot(studio.root, locks=True)
    error = refused(lambda: restore_entry(studio, entry))
    assert error.code in {"invalid_id", "unknown_kind"}
    assert snapshot(studio.root, locks=True) == before
