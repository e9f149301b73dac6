"""Every pair of lorebook formats: a rich book crosses out, is read back, and crosses on; the
outbound report names each loss once (the card matrix's test, for books). Two layers of a writer
may both know a loss (the card's and the platform's); the report keeps one per code and pointer,
bar macro losses, which are one per macro at one pointer."""

from __future__ import annotations

from collections import Counter

import pytest

from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.registry import all_adapters
from bunzai.convert import convert_piece
from bunzai.crossings import rich_character
from bunzai.model.lorebook import Lorebook


def _book_formats() -> list[str]:
    return [
        a.format_id
        for a in all_adapters()
        if "lorebook" in a.kinds and a.can_read and a.can_write and not a.why_unavailable()
    ]


PAIRS = [(a, b) for a in _book_formats() for b in _book_formats() if a != b]


@pytest.fixture(scope="module")
def rich_book() -> Lorebook:
    character, _blobs = rich_character()
    book = character.body.book.model_dump(mode="json")
    book.pop("name", None)  # a card's book names itself; a lorebook piece has the name
    book["settings"] = {"scan_depth": 3, "token_budget": 500, "recursive_scanning": True}
    book["description"] = "The forest and its beasts."
    return Lorebook(id="eldoria", name="Eldoria", body=book)


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=[f"{a}->{b}" for a, b in PAIRS])
def test_a_lorebook_crossing_names_each_loss_once(source, target, rich_book) -> None:
    store: dict[str, bytes] = {}
    first = convert_piece(rich_book, source, lambda ref: store[ref.sha256])
    _adapter, decoded = read_bytes(first.data, first.file_name, source)
    store.update({blob.sha256: blob.data for blob in decoded.blobs})
    arrived = next(piece for piece in decoded.pieces if piece.kind == "lorebook")
    outbound = convert_piece(arrived, target, lambda ref: store[ref.sha256])
    named = Counter((loss.pointer, loss.code) for loss in outbound.losses if not loss.code.startswith("macro."))
    assert [key for key, count in named.items() if count > 1] == []
