"""Properties: unknown keys at every level of Agnai's files survive a same-format round trip."""

from __future__ import annotations

import copy
import json

from cards_support import cross, edit_body, not_carried
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_agnai_formats import memory_book, native_character, tavern_export

LEAF = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.text(max_size=12))
VALUE = st.recursive(
    LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
UNKNOWN = st.dictionaries(
    st.text("abcdefghij_", min_size=1, max_size=8).map(lambda key: "zz_" + key), VALUE, min_size=1, max_size=3
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _places(*names: str):
    return st.fixed_dictionaries({name: UNKNOWN for name in names})


@SETTINGS
@given(extra=_places("root", "persona", "insert", "extensions", "book", "book_extensions", "entry", "voice"))
def test_native_character_keeps_unknown_keys_at_every_level(extra):
    document = native_character()
    homes = {
        "root": document,
        "persona": document["persona"],
        "insert": document["insert"],
        "extensions": document["extensions"],
        "book": document["characterBook"],
        "book_extensions": document["characterBook"]["extensions"],
        "entry": document["characterBook"]["entries"][1],
        "voice": document["voice"],
    }
    for place, keys in extra.items():
        homes[place].update(keys)
    crossing = cross(json.dumps(document).encode(), "sera.json", edit=edit_body(first_message="edited"))
    expected = copy.deepcopy(document)
    expected["greeting"] = "edited"
    assert json.loads(crossing.data) == expected
    assert not_carried(crossing) == []


@SETTINGS
@given(extra=_places("root", "extensions", "entry"))
def test_memory_book_keeps_unknown_keys_at_every_level(extra):
    document = memory_book()
    document.update(extra["root"])
    document["extensions"].update(extra["extensions"])
    document["entries"][0].update(extra["entry"])
    crossing = cross(json.dumps(document).encode(), "book.json")
    assert json.loads(crossing.data) == document
    assert crossing.losses == []


@SETTINGS
@given(extra=_places("root", "data", "extensions", "agnai", "book", "entry", "entry_extensions"))
def test_tavern_export_keeps_unknown_keys_at_every_level(extra):
    document = tavern_export()
    data = document["data"]
    homes = {
        "root": document,
        "data": data,
        "extensions": data["extensions"],
        "agnai": data["extensions"]["agnai"],
        "book": data["character_book"],
        "entry": data["character_book"]["entries"][0],
        "entry_extensions": data["character_book"]["entries"][0]["extensions"],
    }
    for place, keys in extra.items():
        homes[place].update(keys)
    crossing = cross(json.dumps(document).encode(), "sera.json", edit=edit_body(scenario="edited"))
    expected = copy.deepcopy(document)
    expected["scenario"] = expected["data"]["scenario"] = "edited"
    assert json.loads(crossing.data) == expected
    assert not_carried(crossing) == []


@SETTINGS
@given(
    personality=st.text(max_size=8),
    role=st.sampled_from(["system", "user", "assistant"]),
    greeting=st.sampled_from(["hi", "You: hi", "a\\nb"]),
)
def test_crossings_from_native_to_the_other_agnai_formats_report_every_field_they_do_not_carry(
    personality, role, greeting
):
    data = json.dumps(native_character()).encode()

    def edit(piece):
        depth = piece.body.depth_prompt.model_copy(update={"role": role})
        return edit_body(personality=personality, depth_prompt=depth, first_message=greeting)(piece)

    for target in ("agnai.tavern.json", "agnai.card.v3.json", "agnai.character.json"):
        crossing = cross(data, "sera.json", target, edit=edit)
        assert not_carried(crossing) == [], target
