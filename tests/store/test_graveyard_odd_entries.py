"""Graveyard files a person renamed, edited or linked by hand: a restore that would bring back a
damaged piece is refused with nothing moved, and one odd file does not hide the other entries."""

from __future__ import annotations

import json

import pytest

from bunzai.errors import BunzaiError
from bunzai.store.graveyard import bury_piece, list_graveyard, restore_entry
from bunzai.store.pieces import create_piece
from bunzai.store.studio import Studio


def buried(studio: Studio, piece_id: str) -> str:
    create_piece(studio, {"kind": "character", "id": piece_id, "name": piece_id.title()})
    return bury_piece(studio, "character", piece_id)["entry"]


def test_an_entry_renamed_to_another_id_is_not_restored(studio: Studio, snapshot) -> None:
    entry = buried(studio, "ada")  # "restore it as ada-2, since ada is taken": the file still says ada
    grave = studio.graveyard_dir / "character" / f"{entry.split('/')[1]}.json"
    grave.rename(grave.with_name(grave.name.replace("ada@", "ada-2@")))
    before = snapshot(studio.root)
    with pytest.raises(BunzaiError) as caught:
        restore_entry(studio, entry.replace("ada@", "ada-2@"))
    assert caught.value.code == "invalid_piece" and "nothing was restored" in caught.value.message
    assert snapshot(studio.root) == before


def test_a_damaged_piece_buried_comes_back_as_it_was_buried(studio: Studio) -> None:
    path = studio.piece_path("character", "bob")
    create_piece(studio, {"kind": "character", "id": "bob", "name": "Bob"})
    path.write_bytes(path.read_bytes()[:30])  # torn by hand, then put out of the way
    raw = path.read_bytes()
    entry = bury_piece(studio, "character", "bob")["entry"]
    restore_entry(studio, entry)
    assert path.read_bytes() == raw


def test_a_linked_graveyard_file_is_listed_as_damaged_beside_the_others(studio: Studio, tmp_path) -> None:
    entry = buried(studio, "ada")
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"kind": "character", "id": "eve", "name": "Eve"}), encoding="utf-8")
    stamp = entry.split("@")[1]
    (studio.graveyard_dir / "character" / f"eve@{stamp}.json").symlink_to(outside)
    rows = {row["entry"]: row for row in list_graveyard(studio)}
    assert rows[entry]["revision"] and "damaged" not in rows[entry]
    linked = rows[f"character/eve@{stamp}"]
    assert linked["revision"] is None and "symbolic link" in linked["damaged"]
