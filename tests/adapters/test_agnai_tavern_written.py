"""A character from another format written as Agnai's Tavern export reads back as one.

Agnai's export (common/characters.ts exportCharacter) writes all six V1 fields at the root,
`personality: ''` included, and `data.extensions.agnai`; the sniffer tells the file from
SillyTavern's JSON card by that mark, so a written file without it came back as
sillytavern.card.json.
"""

from __future__ import annotations

import json

from cards_support import cross, not_carried, read
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.adapters.inspect import inspect_bytes

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)


def v2_card(description: str, personality: str, extensions: dict | None = None) -> bytes:
    data = {
        "name": "Ada",
        "description": description,
        "personality": personality,
        "scenario": "A lab.",
        "first_mes": "Hello.",
        "mes_example": "",
        "creator_notes": "",
        "system_prompt": "",
        "post_history_instructions": "",
        "alternate_greetings": [],
        "tags": [],
        "creator": "",
        "character_version": "",
        "extensions": extensions or {},
    }
    return json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}).encode()


def test_a_card_without_personality_is_written_as_agnai_writes_it_and_sniffs_back():
    crossing = cross(v2_card("An engineer.", ""), "ada.json", "agnai.tavern.json")
    document = json.loads(crossing.data)
    assert list(document)[:6] == ["name", "first_mes", "scenario", "description", "personality", "mes_example"]
    assert document["personality"] == "" and document["description"] == "An engineer."
    assert document["data"]["extensions"]["agnai"] == {
        "persona": {"kind": "text", "attributes": {"text": ["An engineer."]}}
    }
    assert inspect_bytes(crossing.data, "ada.json").adapter.format_id == "agnai.tavern.json"
    assert not_carried(crossing) == []


def test_the_mark_folds_the_personality_as_agnai_import_would():
    crossing = cross(v2_card("An engineer.", "curious"), "ada.json", "agnai.tavern.json")
    agnai = json.loads(crossing.data)["data"]["extensions"]["agnai"]
    assert agnai["persona"]["attributes"]["text"] == ["An engineer.\ncurious"]
    assert "agnai.personality.folded" in {loss.code for loss in crossing.losses}


def test_a_written_file_reads_back_as_the_same_character():
    _adapter, decoded, _media = read(v2_card("An engineer.", "curious", {"chub": {"id": 3}}), "ada.json")
    crossing = cross(v2_card("An engineer.", "curious", {"chub": {"id": 3}}), "ada.json", "agnai.tavern.json")
    adapter, again, _media = read(crossing.data, "ada.json")
    assert adapter.format_id == "agnai.tavern.json"
    before, after = decoded.pieces[0], again.pieces[0]
    assert after.name == before.name
    assert after.body.model_dump(exclude={"links"}) == before.body.model_dump(exclude={"links"})
    assert after.body.extensions == {"chub": {"id": 3}}  # the mark repeats the card: it is no app data


def test_a_carried_mark_that_only_repeats_the_card_is_reported():
    mark = {"persona": {"kind": "text", "attributes": {"text": ["An engineer."]}}}
    crossing = cross(v2_card("An engineer.", "", {"agnai": mark}), "ada.json", "agnai.tavern.json")
    assert not_carried(crossing) == []
    assert "agnai.mark.read_as_card" in {loss.code for loss in crossing.losses}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(description=TEXT, personality=TEXT)
def test_any_written_card_sniffs_back_and_loses_nothing_unreported(description, personality):
    crossing = cross(v2_card(description, personality), "ada.json", "agnai.tavern.json")
    assert inspect_bytes(crossing.data, "ada.json").adapter.format_id == "agnai.tavern.json"
    assert not_carried(crossing) == []
    _adapter, again, _media = read(crossing.data, "ada.json")
    assert (again.pieces[0].body.description, again.pieces[0].body.personality) == (description, personality)


def test_the_derived_mark_is_named_as_derived_when_the_card_crosses_on_and_app_data_in_it_travels():
    # the mark a writer derives repeats description and personality: a V2 card without it
    # carries what it said, and the loss says that (it said "has no place for", which was false)
    written = cross(v2_card("An engineer.", "curious"), "ada.json", "agnai.tavern.json").data
    onward = cross(written, "ada.json", "ccv2.json")
    assert [(loss.code, loss.pointer) for loss in onward.losses if loss.code.startswith("card.key.")] == [
        ("card.key.derived", "/original/document/data/extensions/agnai")
    ]
    mark = json.loads(written)
    mark["data"]["extensions"]["agnai"]["voice"] = {"service": "webspeech"}
    onward = cross(json.dumps(mark).encode(), "ada.json", "ccv2.json")
    assert json.loads(onward.data)["data"]["extensions"]["agnai"]["voice"] == {"service": "webspeech"}
    assert not [loss for loss in onward.losses if loss.code.startswith("card.key.")]
