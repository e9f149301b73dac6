"""Properties: unknown keys anywhere in card.json survive a CHARX round trip; crossings name every loss."""

from __future__ import annotations

import copy
import io
import json
import zipfile

from cards_support import cross, edit_body, not_carried
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_charx_archive import card, charx, members

LEAF = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.text(max_size=12))
VALUE = st.recursive(
    LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
UNKNOWN = st.dictionaries(
    st.text("abcdefghij_", min_size=1, max_size=8).map(lambda key: "zz_" + key), VALUE, min_size=1, max_size=3
)
PLACES = ("root", "data", "extensions", "book", "book_extensions", "entry", "entry_extensions", "asset", "asset_uri")
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _sprinkle(extra: dict[str, dict]) -> dict:
    document = card()
    data, book = document["data"], document["data"]["character_book"]
    homes = {
        "root": document,
        "data": data,
        "extensions": data["extensions"],
        "book": book,
        "book_extensions": book["extensions"],
        "entry": book["entries"][0],
        "entry_extensions": book["entries"][0]["extensions"],
        "asset": data["assets"][0],
        "asset_uri": data["assets"][2],
    }
    for place, keys in extra.items():
        homes[place].update(keys)
    return document


@SETTINGS
@given(extra=st.fixed_dictionaries({place: UNKNOWN for place in PLACES}))
def test_unknown_keys_at_every_level_survive_a_charx_round_trip(extra):
    document = _sprinkle(extra)
    crossing = cross(charx(members(document)), "ada.charx", edit=edit_body(description="edited"))
    expected = copy.deepcopy(document)
    expected["data"]["description"] = "edited"
    with zipfile.ZipFile(io.BytesIO(crossing.data)) as archive:
        written = {name: archive.read(name) for name in archive.namelist()}
    assert json.loads(written.pop("card.json")) == expected
    assert written == dict(members(document)[:-1])
    assert not_carried(crossing) == []


@SETTINGS
@given(
    extra=st.fixed_dictionaries({place: UNKNOWN for place in PLACES}),
    nickname=st.text(max_size=8),
    source=st.lists(st.text(max_size=8), max_size=2),
)
def test_crossings_from_charx_report_every_field_they_do_not_carry(extra, nickname, source):
    data = charx(members(_sprinkle(extra)))
    edit = edit_body(nickname=nickname, source=source)
    for target in ("ccv3.json", "ccv2.json", "sillytavern.card.png"):
        crossing = cross(data, "ada.charx", target, edit=edit)
        assert not_carried(crossing) == [], target
