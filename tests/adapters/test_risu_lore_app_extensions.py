"""A lore entry's app data crosses in RisuAI's `extentions` (sic), as RisuAI itself carries it.

RisuAI's card import keeps a card entry's whole extensions in the entry's `extentions`
(characterCards.ts convertCharbook: `extentions: {...extensions, risu_case_sensitive}`), its
lorebook export and import keep each entry whole (process/lorebook.svelte.ts exportLoreBook,
importLoreBook), and its card export writes them back as the entry's extensions (createBaseV2).
The risu.lorebook writer used to drop them (`risu.entry.extensions`) and its reader to bury them
in extensions.risuai.extentions; now `extentions` app data is the canonical entry's extensions.
"""

from __future__ import annotations

import json

from cards_support import read
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_risu_lore_case_only_extentions import ENTRY

from bunzai.convert import convert_piece
from bunzai.model.lorebook import Lorebook

APP = {"myapp": {"mood": "calm", "weight": 2}, "tags": ["a", "b"]}


def book(extensions: dict, **entry) -> Lorebook:
    fields = {"uid": 0, "keys": [{"text": "castle"}], "content": "A grey castle.", "extensions": extensions}
    return Lorebook(id="b", name="b", body={"entries": [fields | entry]})


def no_media(ref):
    raise AssertionError("a lorebook has no media")


def test_app_data_is_written_in_extentions_and_reads_back_as_it_was():
    crossing = convert_piece(book(APP, case_sensitive=True), "risu.lorebook", no_media)
    [written] = json.loads(crossing.data)["data"]
    assert written["extentions"] == APP | {"risu_case_sensitive": True}
    assert crossing.losses == []  # the read-back check found nothing missing either
    _adapter, decoded, _media = read(crossing.data, "lorebook_export.json")
    [entry] = decoded.pieces[0].body.entries
    assert entry.extensions == APP and entry.case_sensitive is True


def test_a_card_entry_s_app_data_reaches_risuai_s_lorebook_as_risuai_s_import_keeps_it():
    card = {
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {
            "name": "Ana",
            "character_book": {
                "entries": [
                    {
                        "id": 0,
                        "keys": ["castle"],
                        "content": "A grey castle.",
                        "enabled": True,
                        "insertion_order": 100,
                        "extensions": {"position": 1, "depth": 4, **APP},
                    }
                ]
            },
        },
    }
    _adapter, decoded, media = read(json.dumps(card).encode(), "ana.json")
    [lorebook] = [piece for piece in decoded.pieces if piece.kind == "lorebook"]
    crossing = convert_piece(lorebook, "risu.lorebook", media)
    [written] = json.loads(crossing.data)["data"]
    assert written["extentions"] == APP
    assert "risu.entry.extensions" not in {loss.code for loss in crossing.losses}
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def test_a_risuai_entry_s_extentions_split_into_app_data_and_risuai_s_own_keys():
    # an entry RisuAI imported from a card keeps SillyTavern's keys there too: they stay RisuAI's
    extentions = {"position": 1, "myapp": APP["myapp"], "risu_case_sensitive": False, "risuai": {"x": 1}}
    native = dict(ENTRY, extentions=extentions)
    data = json.dumps({"type": "risu", "ver": 1, "data": [native]}, separators=(",", ":")).encode()
    _adapter, decoded, media = read(data, "lorebook_export.json")
    [entry] = decoded.pieces[0].body.entries
    assert entry.extensions == {
        "myapp": APP["myapp"],
        "risuai": {"extentions": {"position": 1, "risuai": {"x": 1}}},
    }
    assert entry.case_sensitive is False
    assert convert_piece(decoded.pieces[0], "risu.lorebook", media).data == data  # byte for byte, key order too
    v3 = json.loads(convert_piece(decoded.pieces[0], "lorebook_v3.json", media).data)  # as a card's book writes it
    assert v3["data"]["entries"][0]["extensions"]["myapp"] == APP["myapp"]


def test_app_data_edited_or_taken_out_is_written_so():
    _adapter, decoded, media = read(convert_piece(book(APP), "risu.lorebook", no_media).data, "l.json")
    piece = decoded.pieces[0]
    [entry] = piece.body.entries
    edited = entry.model_copy(update={"extensions": {"tags": ["c"], "new": 1}})
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"entries": [edited]})})
    crossing = convert_piece(piece, "risu.lorebook", media)
    assert json.loads(crossing.data)["data"][0]["extentions"] == {"tags": ["c"], "new": 1}
    assert crossing.losses == []


def test_what_extentions_cannot_hold_is_named():
    crossing = convert_piece(book({"risu_case_sensitive": True, "position": 3, "kept": 1}), "risu.lorebook", no_media)
    named = {loss.pointer for loss in crossing.losses if loss.code == "risu.entry.extensions"}
    assert named == {"/body/entries/0/extensions/risu_case_sensitive", "/body/entries/0/extensions/position"}
    assert json.loads(crossing.data)["data"][0]["extentions"] == {"kept": 1}
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]
    junk = book({"kept": 1, "risuai": {"extentions": "not an object"}})
    crossing = convert_piece(junk, "risu.lorebook", no_media)
    assert json.loads(crossing.data)["data"][0]["extentions"] == "not an object"
    assert {loss.pointer for loss in crossing.losses if loss.code == "risu.entry.extensions"} == {
        "/body/entries/0/extensions"
    }


_KEY = st.text("abcdefghij_", min_size=1, max_size=6).map(lambda key: "x_" + key)
_VALUE = st.recursive(
    st.one_of(st.integers(-5, 5), st.text(max_size=5), st.booleans(), st.none()),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(_KEY, inner, max_size=2),
    max_leaves=4,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(app=st.dictionaries(_KEY, _VALUE, max_size=3), case=st.sampled_from([None, True, False]))
def test_any_app_data_crosses_and_reads_back_the_same(app, case):
    crossing = convert_piece(book(app, case_sensitive=case), "risu.lorebook", no_media)
    assert crossing.losses == []
    _adapter, decoded, _media = read(crossing.data, "l.json")
    [entry] = decoded.pieces[0].body.entries
    assert (entry.extensions, entry.case_sensitive) == (app, case)


def test_app_data_read_by_an_earlier_bunzai_into_risuai_s_keys_is_named_as_moved():
    # before, the reader kept every `extentions` key but the case flag in extensions.risuai.extentions
    older = book({"risuai": {"extentions": {"myapp": APP["myapp"], "position": 2}}})
    crossing = convert_piece(older, "risu.lorebook", no_media)
    assert json.loads(crossing.data)["data"][0]["extentions"] == {"myapp": APP["myapp"], "position": 2}
    assert [(loss.pointer, loss.action, loss.code) for loss in crossing.losses] == [
        ("/body/entries/0/extensions", "translated", "risu.entry.extensions_moved")
    ]
