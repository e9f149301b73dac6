"""Hostile ids and kinds are refused before any file operation, by every entry point."""

from __future__ import annotations

import pytest

from bunzai.store.graveyard import bury_piece, restore_entry
from bunzai.store.pieces import create_piece, delete_piece, read_stored, resolve_ref, try_read, update_piece
from bunzai.store.studio import Studio

HOSTILE_IDS = [
    "../x",
    "/abs",
    "a\x00b",
    "CON",
    "con",
    "nul.txt",
    "x" * 300,
    ".",
    "..",
    "Ada",
    "s\u0435raphina",  # Cyrillic 'е'
    "",
    "a/b",
    "a\\b",
    "-lead",
    "trail.",
    " ada",
    "ada\n",
    None,
    42,
]


def entry_points(studio: Studio, bad: object) -> list:
    doc = {"kind": "character", "id": bad, "name": "x"}
    calls = [
        lambda: studio.piece_path("character", bad),
        lambda: read_stored(studio, "character", bad),
        lambda: try_read(studio, "character", bad),
        lambda: create_piece(studio, doc),
        lambda: update_piece(studio, doc, "0" * 64),
        lambda: delete_piece(studio, "character", bad),
        lambda: bury_piece(studio, "character", bad),
        lambda: resolve_ref(studio, bad),
    ]
    if isinstance(bad, str):  # 42 would spell the valid id "42" inside a reference
        calls += [
            lambda: resolve_ref(studio, f"character/{bad}"),
            lambda: restore_entry(studio, f"character/{bad}@20261130T051500123456Z"),
        ]
    return calls


@pytest.mark.parametrize("bad", HOSTILE_IDS, ids=repr)
def test_hostile_ids_are_refused_before_any_file_operation(studio: Studio, bad: object, refused, snapshot) -> None:
    before = snapshot(studio.root.parent, locks=True)
    for call in entry_points(studio, bad):
        assert refused(call).code in {"invalid_id", "unknown_kind"}
    assert snapshot(studio.root.parent, locks=True) == before


@pytest.mark.parametrize("kind", ["../x", "Character", "characters", "", "assets", ".bunzai", None, 7, ["character"]])
def test_unknown_kinds_are_refused_before_any_file_operation(studio: Studio, kind: object, refused, snapshot) -> None:
    before = snapshot(studio.root.parent, locks=True)
    calls = [
        lambda: studio.piece_path(kind, "ada"),
        lambda: read_stored(studio, kind, "ada"),
        lambda: create_piece(studio, {"kind": kind, "id": "ada"}),
        lambda: update_piece(studio, {"kind": kind, "id": "ada"}, "0" * 64),
        lambda: delete_piece(studio, kind, "ada"),
        lambda: bury_piece(studio, kind, "ada"),
    ]
    for call in calls:
        assert refused(call).code == "unknown_kind"
    assert snapshot(studio.root.parent, locks=True) == before


def test_invalid_id_message_names_the_problem(studio: Studio, refused) -> None:
    error = refused(lambda: studio.piece_path("character", "x" * 300))
    assert "at most 128 characters" in error.message
