"""RisuAI lore entries' `mode` (loreBook.mode: 'normal', 'folder', 'child' ...), in lorebook exports
and in modules: every RisuAI writer sets it, `normal` being the default."""

from __future__ import annotations

import json

from cards_support import read
from hypothesis import given, settings
from hypothesis import strategies as st
from risu_support import module_bytes

from bunzai.adapters.risu.lore_entries import read_entry, write_entry
from bunzai.adapters.risu.module import decode_module
from bunzai.convert import convert_piece
from bunzai.model.lorebook import LoreEntry, Lorebook


def _book(*entries: dict) -> Lorebook:
    return Lorebook(id="places", name="Places", body={"entries": list(entries)})


def test_a_new_entry_is_written_with_risuai_s_default_mode():
    book = _book({"uid": 0, "keys": [{"text": "inn"}], "content": "An inn."})
    written = json.loads(convert_piece(book, "risu.lorebook", lambda ref: b"").data)
    assert written["data"][0]["mode"] == "normal"


def test_a_new_module_entry_is_written_with_risuai_s_default_mode(table):
    book = _book({"uid": 0, "keys": [{"text": "inn"}], "content": "An inn."})
    crossing = convert_piece(book, "risu.module", lambda ref: b"")
    document, _assets = decode_module(crossing.data, table, "the module")
    assert [entry["mode"] for entry in document["module"]["lorebook"]] == ["normal"]


def test_a_module_s_modes_read_as_extensions_and_go_back_as_they_were(table):
    lore = [
        {"key": "\uf000folder:f", "secondkey": "", "insertorder": 100, "comment": "F", "content": "", "mode": "folder"},
        {"key": "inn", "secondkey": "", "insertorder": 100, "comment": "Inn", "content": "x", "mode": "normal"},
        {"key": "old", "secondkey": "", "insertorder": 100, "comment": "Old", "content": "y"},  # an older module
    ]
    module = {"name": "M", "description": "", "id": "m", "lorebook": lore, "regex": [], "trigger": []}
    _adapter, decoded, media = read(module_bytes(module, table), "m.risum")
    entries = decoded.pieces[0].body.entries
    assert [entry.extensions for entry in entries] == [{"risuai": {"mode": "folder"}}, {}, {}]
    document, _assets = decode_module(convert_piece(decoded.pieces[0], "risu.module", media).data, table, "m")
    assert document["module"]["lorebook"] == lore


def test_an_entry_whose_mode_extension_is_taken_away_is_written_normal():
    base = {"key": "inn", "secondkey": "", "insertorder": 100, "comment": "", "content": "x", "mode": "child"}
    canonical = read_entry(base, 0) | {"extensions": {}}
    assert write_entry(base, canonical, 0)["mode"] == "normal"


@settings(max_examples=60, deadline=None)
@given(mode=st.sampled_from([None, "normal", "folder", "child", "constant", "multiple"]), content=st.text(max_size=20))
def test_a_canonical_entry_written_anew_reads_back_as_it_was(mode, content):
    extensions = {"risuai": {"mode": mode}} if mode not in (None, "normal") else {}
    entry = LoreEntry(uid=0, content=content, keys=[{"text": "inn"}], extensions=extensions).model_dump(mode="json")
    native = write_entry(None, entry, 0)
    assert native["mode"] == (mode or "normal")
    # the default chance, 100, is written as none, as RisuAI writes it (and fires as surely)
    assert LoreEntry.model_validate(read_entry(native, 0)).model_dump(mode="json") == entry | {"use_probability": False}
