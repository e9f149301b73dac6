"""Agnai: what a structured persona and a memory book's non-object entries lose, said aloud.

A personality folded into the persona text replaces a structured persona (its attributes)
just as an edited description does; an item of `entries` that is not an object is no
memory entry, so reading warns and a write that leaves it out reports it.
"""

from __future__ import annotations

import json

import pytest
from cards_support import cross, edit_body, not_carried, read
from test_agnai_formats import memory_book, native_character

WPP = '[character("Seraphina") {\nspecies("elf")\nmind("kind" + "brave")\n}]'


def _codes(crossing) -> list[str]:
    return [loss.code for loss in crossing.losses]


def test_a_personality_folded_into_a_structured_persona_reports_the_attributes_lost():
    crossing = cross(json.dumps(native_character()).encode(), "sera.json", edit=edit_body(personality="loyal"))
    assert json.loads(crossing.data)["persona"]["attributes"] == {"text": [WPP + "\nloyal"]}
    assert "agnai.persona.to_text" in _codes(crossing) and "agnai.personality.folded" in _codes(crossing)
    assert not_carried(crossing) == []


def test_an_unedited_structured_persona_reports_nothing():
    crossing = cross(json.dumps(native_character()).encode(), "sera.json")
    assert crossing.losses == []


def test_a_persona_turned_to_text_keeps_its_other_keys():
    persona = {"kind": "sbf", "attributes": {"looks": ["tall"]}, "zz_app": {"x": 1}}
    edit = edit_body(description="Now plain.")
    written = json.loads(cross(json.dumps(native_character(persona)).encode(), "sera.json", edit=edit).data)
    assert written["persona"] == {"kind": "text", "attributes": {"text": ["Now plain."]}, "zz_app": {"x": 1}}


@pytest.mark.parametrize("stray", [None, "a note", 7, ["x"]])
def test_a_memory_book_entry_that_is_no_object_is_warned_about_and_reported(stray):
    document = memory_book()
    document["entries"].insert(1, stray)
    data = json.dumps(document).encode()
    _adapter, decoded, _media = read(data, "book.json")
    assert len(decoded.pieces[0].body.entries) == 2
    assert len(decoded.warnings) == 1 and "entry 1 " in decoded.warnings[0]
    crossing = cross(data, "book.json")
    assert [(loss.pointer, loss.code) for loss in crossing.losses] == [
        ("/original/document/entries/1", "agnai.entry.not_object")
    ]
    assert all(isinstance(entry, dict) for entry in json.loads(crossing.data)["entries"])


def test_a_character_book_entry_that_is_no_object_is_warned_about_and_reported():
    document = native_character()
    document["characterBook"]["entries"].append("stray")
    data = json.dumps(document).encode()
    _adapter, decoded, _media = read(data, "sera.json")
    assert len(decoded.warnings) == 1 and "entry 2 " in decoded.warnings[0]
    crossing = cross(data, "sera.json")
    assert [(loss.pointer, loss.code) for loss in crossing.losses] == [
        ("/original/document/characterBook/entries/2", "agnai.entry.not_object")
    ]


def test_a_book_of_objects_warns_of_nothing():
    _adapter, decoded, _media = read(json.dumps(memory_book()).encode(), "book.json")
    assert decoded.warnings == []
