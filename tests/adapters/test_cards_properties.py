"""Properties: unknown keys at every level survive a same-format round trip; crossings name every loss."""

from __future__ import annotations

import copy
import json

from cards_support import card_png, cross, edit_body, not_carried, png_documents
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

LEAF = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.text(max_size=12))
VALUE = st.recursive(
    LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
UNKNOWN = st.dictionaries(
    st.text("abcdefghij_", min_size=1, max_size=8).map(lambda key: "zz_" + key), VALUE, min_size=1, max_size=3
)
PLACES = ("root", "data", "extensions", "book", "book_extensions", "entry", "entry_extensions", "asset")
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _card(spec: str) -> dict:
    data = {
        "name": "Ada",
        "description": "d",
        "personality": "p",
        "scenario": "s",
        "first_mes": "hi",
        "mes_example": "",
        "creator_notes": "",
        "system_prompt": "",
        "post_history_instructions": "",
        "alternate_greetings": ["yo"],
        "tags": ["t"],
        "creator": "c",
        "character_version": "1",
        "extensions": {"depth_prompt": {"prompt": "note", "depth": 2, "role": "user"}},
        "character_book": {
            "name": "Lore",
            "extensions": {},
            "entries": [
                {
                    "keys": ["k", "/re+/i"],
                    "content": "@@depth 2\nc",
                    "extensions": {"position": 4, "role": 1},
                    "enabled": True,
                    "insertion_order": 10,
                    "id": 1,
                },
                {"keys": ["j"], "content": "c2", "extensions": {}, "enabled": False, "insertion_order": 5},
            ],
        },
    }
    if spec == "chara_card_v3":
        data |= {
            "group_only_greetings": [],
            "nickname": "A",
            "assets": [{"type": "icon", "uri": "ccdefault:", "name": "main", "ext": "png"}],
        }
    return {"spec": spec, "spec_version": "3.0" if spec == "chara_card_v3" else "2.0", "data": data}


def _sprinkle(card: dict, extra: dict[str, dict]) -> dict:
    card = copy.deepcopy(card)
    data, book = card["data"], card["data"]["character_book"]
    homes = {
        "root": card,
        "data": data,
        "extensions": data["extensions"],
        "book": book,
        "book_extensions": book["extensions"],
        "entry": book["entries"][0],
        "entry_extensions": book["entries"][1]["extensions"],
        "asset": (data.get("assets") or [{}])[0],
    }
    for place, keys in extra.items():
        homes[place].update(keys)
    return card


def _unknown_places():
    return st.fixed_dictionaries({place: UNKNOWN for place in PLACES})


@SETTINGS
@given(extra=_unknown_places())
def test_json_cards_keep_unknown_keys_at_every_level(extra):
    for spec, fmt in (("chara_card_v2", "ccv2.json"), ("chara_card_v3", "ccv3.json")):
        card = _sprinkle(_card(spec), extra)
        crossing = cross(json.dumps(card).encode(), "ada.json", fmt, edit=edit_body(description="edited"))
        expected = copy.deepcopy(card)
        expected["data"]["description"] = "edited"
        assert json.loads(crossing.data) == expected
        assert not_carried(crossing) == []


@SETTINGS
@given(extra=_unknown_places())
def test_png_cards_keep_unknown_keys_at_every_level(extra):
    card = _sprinkle(_card("chara_card_v2"), extra)
    card |= {"name": "Ada", "avatar": "none", "talkativeness": "0.5"}
    crossing = cross(card_png({"chara": card}), "ada.png", edit=edit_body(description="edited"))
    expected = copy.deepcopy(card)
    expected["data"]["description"] = expected["description"] = "edited"
    documents = png_documents(crossing.data)
    assert {key: value for key, value in documents["chara"].items() if key in expected} == expected
    assert not_carried(crossing) == []


@SETTINGS
@given(extra=st.fixed_dictionaries({place: UNKNOWN for place in ("root", "book", "entry", "entry_extensions")}))
def test_lorebook_v3_keeps_unknown_keys(extra):
    book = _sprinkle(_card("chara_card_v2"), {})["data"]["character_book"]
    document = {"spec": "lorebook_v3", "data": book}
    document.update(extra["root"])
    book.update(extra["book"])
    book["entries"][0].update(extra["entry"])
    book["entries"][1]["extensions"].update(extra["entry_extensions"])
    crossing = cross(json.dumps(document).encode(), "lore.json")
    assert json.loads(crossing.data) == document
    assert crossing.losses == []


@SETTINGS
@given(
    nickname=st.text(max_size=8),
    source=st.lists(st.text(max_size=8), max_size=2),
    date=st.none() | st.integers(1, 2 * 10**9),
    notes=st.dictionaries(st.sampled_from(["en", "ja"]), st.text(max_size=5)),
)
def test_crossings_to_v2_and_v1_report_every_field_they_do_not_carry(nickname, source, date, notes):
    card = json.dumps(_card("chara_card_v3")).encode()
    edit = edit_body(nickname=nickname, source=source, creation_date=date, creator_notes_multilingual=notes)
    for target in ("ccv2.json", "ccv1.json", "sillytavern.card.json", "sillytavern.card.png"):
        crossing = cross(card, "ada.json", target, edit=edit)
        assert not_carried(crossing) == [], target
