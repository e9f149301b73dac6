"""Scan depth 0: every message to Marinara Engine (keyword-scanner.ts slices the chat only for a
depth above 0; an entry's null takes the book's), no message to SillyTavern (world-info.js) and to
the canonical model. Marinara's 0 reads as the deepest scan SillyTavern runs and goes back as 0;
a canonical 0 cannot be said in Marinara, so it is written as 1 and named."""

from __future__ import annotations

import json

from hypothesis import example, given
from hypothesis import strategies as st
from marinara_support import envelope, lorebook_export, no_media, read

from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.marinara.lorebook import SCAN_ALL
from bunzai.convert import convert_piece
from bunzai.model.lorebook import Lorebook

CODE = "marinara.lorebook.scan_depth.none"
depths = st.integers(min_value=0, max_value=2 * SCAN_ALL)


def marinara_book(book_depth: int, entry_depth: int | None) -> bytes:
    data = json.loads(lorebook_export())["data"]
    data["lorebook"]["scanDepth"] = book_depth
    data["entries"][0]["scanDepth"] = entry_depth
    return envelope("marinara_lorebook", data)


def st_world(scan_depth: int | None) -> bytes:
    entry = {"uid": 0, "key": ["dragon"], "content": "A dragon.", "comment": "Dragon", "scanDepth": scan_depth}
    return json.dumps({"entries": {"0": entry}}).encode()


def scan_losses(crossing, under: str = "/body/entries") -> list[str]:
    """Where a scan depth was named lost or changed (a book left to the app gets Marinara's default)."""
    return sorted(
        loss.pointer
        for loss in crossing.losses
        if loss.code == CODE or (loss.pointer.startswith(under) and loss.pointer.endswith("/scan_depth"))
    )


@given(book_depth=depths, entry_depth=depths)
@example(book_depth=0, entry_depth=0)
def test_marinara_zero_reads_as_every_message(book_depth, entry_depth):
    _adapter, decoded = read(marinara_book(book_depth, entry_depth))
    body = decoded.pieces[0].body
    assert body.settings.scan_depth == (SCAN_ALL if book_depth == 0 else book_depth)
    assert body.entries[0].scan_depth == (SCAN_ALL if entry_depth == 0 else entry_depth)


@given(book_depth=depths, entry_depth=st.none() | depths)
@example(book_depth=0, entry_depth=0).via("a Marinara 0 stays 0")
@example(book_depth=SCAN_ALL, entry_depth=SCAN_ALL).via("a Marinara 1000 stays 1000")
def test_a_marinara_book_goes_back_as_it_was(book_depth, entry_depth):
    raw = marinara_book(book_depth, entry_depth)
    _adapter, decoded = read(raw)
    crossing = convert_piece(decoded.pieces[0], "marinara.lorebook", no_media)
    assert json.loads(crossing.data) == json.loads(raw) and crossing.losses == []


def test_a_marinara_entry_scanning_every_message_scans_every_message_in_sillytavern():
    """SillyTavern truncates a deeper scan to MAX_SCAN_DEPTH and keeps no more messages than that."""
    _adapter, decoded = read(marinara_book(2, 0))
    crossing = convert_piece(decoded.pieces[0], "sillytavern.world", no_media)
    entry = next(iter(json.loads(crossing.data)["entries"].values()))
    assert entry["scanDepth"] == SCAN_ALL and scan_losses(crossing) == []


@given(depth=st.none() | depths)
@example(depth=0)
@example(depth=SCAN_ALL)
def test_a_sillytavern_entry_s_scan_depth_keeps_its_meaning_in_marinara(depth):
    _adapter, decoded = read_bytes(st_world(depth), "Beasts.json", "sillytavern.world")
    crossing = convert_piece(decoded.pieces[0], "marinara.lorebook", no_media)
    row = json.loads(crossing.data)["data"]["entries"][0]
    expected = {None: None, 0: 1, SCAN_ALL: 0}.get(depth, depth)
    assert row["scanDepth"] == expected
    assert scan_losses(crossing) == (["/body/entries/0/scan_depth"] if depth == 0 else [])


@given(depth=depths)
@example(depth=0)
@example(depth=SCAN_ALL)
def test_a_book_s_scan_depth_keeps_its_meaning_in_marinara(depth):
    piece = Lorebook.model_validate({"id": "beasts", "name": "Beasts", "body": {"settings": {"scan_depth": depth}}})
    crossing = convert_piece(piece, "marinara.lorebook", no_media)
    book = json.loads(crossing.data)["data"]["lorebook"]
    assert book["scanDepth"] == {0: 1, SCAN_ALL: 0}.get(depth, depth)
    assert scan_losses(crossing, "/body/settings") == (["/body/settings/scan_depth"] if depth == 0 else [])
