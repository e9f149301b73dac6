"""An Agnai text persona keeps its other attributes when its text is edited, as Agnai's own
editor does (web/pages/Character/editor.ts: `{...char.persona.attributes}`, then `text`)."""

from __future__ import annotations

import json

from cards_support import cross, edit_body, not_carried
from hypothesis import given
from hypothesis import strategies as st
from test_agnai_formats import native_character

from bunzai.adapters.agnai.persona import text_persona

_OTHER_ATTRIBUTES = st.dictionaries(
    st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8).filter(lambda key: key != "text"),
    st.lists(st.text(max_size=8), max_size=3),
    max_size=3,
)


def test_an_edited_description_keeps_the_text_personas_other_attributes():
    persona = {"kind": "text", "attributes": {"text": ["Old text."], "mood": ["calm"]}, "zz_app": 1}
    crossing = cross(
        json.dumps(native_character(persona)).encode(), "sera.json", edit=edit_body(description="New text.")
    )
    assert json.loads(crossing.data)["persona"] == {
        "kind": "text",
        "attributes": {"text": ["New text."], "mood": ["calm"]},
        "zz_app": 1,
    }
    assert not_carried(crossing) == []


@given(others=_OTHER_ATTRIBUTES, text=st.text(max_size=12))
def test_setting_the_text_of_a_text_persona_changes_only_the_text(others, text):
    base = {"kind": "text", "attributes": {"text": ["before"], **others}}
    assert text_persona(text, base)["attributes"] == {"text": [text], **others}


def test_a_structured_persona_turned_to_text_keeps_none_of_its_attributes():
    base = {"kind": "wpp", "attributes": {"species": ["elf"]}}
    assert text_persona("plain", base) == {"kind": "text", "attributes": {"text": ["plain"]}}
