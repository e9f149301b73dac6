"""The store sorts a piece file's keys and records the escrow's own key order beside them."""

from __future__ import annotations

import json

from bunzai.store.canon import canonical_bytes
from bunzai.store.pieces import create_piece, read_stored, update_piece
from bunzai.store.studio import Studio
from bunzai.validate import validate_piece

DOCUMENT = {"entries": {"0": {"uid": 0, "key": ["gate"], "content": "Gate."}}, "name": "Gates"}


def piece(document: dict) -> dict:
    return {
        "kind": "lorebook",
        "id": "gates",
        "name": "Gates",
        "original": {"format": "sillytavern.world", "document": document},
    }


def test_the_file_is_sorted_and_reading_it_gives_the_order_back(studio: Studio) -> None:
    create_piece(studio, piece(DOCUMENT))
    stored = read_stored(studio, "lorebook", "gates")
    assert stored.raw == canonical_bytes(stored.data)  # sorted keys, as every piece file
    assert stored.data["original"]["key_order"]["objects"] == {"/entries/0": 0}
    document = validate_piece(stored.data).original.document
    assert json.dumps(document) == json.dumps(DOCUMENT)


def test_writing_the_stored_copy_back_as_it_is_keeps_the_order(studio: Studio) -> None:
    # What a refused group's undo does: it writes back the piece file's own JSON, sorted
    # throughout, whose order lives only in the record it carries.
    first = create_piece(studio, piece(DOCUMENT))
    before = read_stored(studio, "lorebook", "gates")
    edited = piece({**DOCUMENT, "name": "Old Gates"})
    second = update_piece(studio, edited, first.revision)
    update_piece(studio, before.data, second.revision)
    assert read_stored(studio, "lorebook", "gates").raw == before.raw


def test_a_sorted_document_gets_no_record(studio: Studio) -> None:
    create_piece(studio, piece({"a": 1, "b": {"c": 2}}))
    assert "key_order" not in read_stored(studio, "lorebook", "gates").data["original"]
