"""An entry's probability reads as SillyTavern's scan uses it: `Math.random() * 100 <= probability`
(world-info.js), so below 0 never fires and above 100 always does; the file keeps its own value."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from bunzai.adapters.common.card_book import read_entry, read_probability
from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.registry import get_adapter
from bunzai.adapters.sillytavern.world_entry import ENTRY_FIELDS
from bunzai.convert import convert_piece
from bunzai.render.lore import activate

WORLD = "sillytavern.world"


def no_media(ref):
    raise AssertionError("no media here")


def world(probability) -> dict:
    entry = {"uid": 0, "key": ["dragon"], "content": "Dragons sleep.", "probability": probability}
    return {"entries": {"0": dict(entry, useProbability=True)}}


def read_world(document: dict):
    data = json.dumps(document).encode()
    return get_adapter(WORLD).read(data, "Test.json", json.loads(data)).pieces[0]


@given(st.integers(-(2**60), 2**60))
def test_a_whole_number_reads_clamped_into_0_to_100(number):
    assert read_probability(number) == min(100, max(0, number))
    assert ENTRY_FIELDS.decode({"probability": number})["probability"] == min(100, max(0, number))


def test_a_negative_world_probability_reads_0_and_the_file_keeps_it():
    piece = read_world(world(-5))
    assert piece.body.entries[0].probability == 0
    piece.body.entries[0].content = "edited"
    written = json.loads(convert_piece(piece, WORLD, no_media).data)["entries"]["0"]
    assert written["probability"] == -5 and written["content"] == "edited"


def test_fractions_and_numbers_as_text_read_as_sillytavern_compares_them():
    assert [read_probability(v) for v in (33.3, 99.6, "40", -0.2, 1e300, None, "x")] == [33, 100, 40, 0, 100, 100, 0]


def test_a_negative_card_book_probability_reads_0_and_the_card_keeps_it():
    entry = {"keys": ["dragon"], "content": "c", "extensions": {"probability": -20, "useProbability": True}}
    assert read_entry(entry, 0)["probability"] == 0
    card = {
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {"name": "Ana", "character_book": {"entries": [dict(entry, id=0)]}},
    }
    pieces = read_bytes(json.dumps(card).encode(), "Ana.json")[1].pieces
    book = next(p for p in pieces if p.kind == "lorebook")
    assert book.body.entries[0].probability == 0
    character = next(p for p in pieces if p.kind == "character")
    crossing = convert_piece(character, character.original.format, no_media)
    written = json.loads(crossing.data)["data"]["character_book"]["entries"][0]
    assert written["extensions"]["probability"] == -20


def test_render_never_fires_an_entry_with_a_negative_probability():
    body = read_world(world(-1)).body.model_dump(mode="json")
    chat = [{"role": "user", "content": "a dragon"}]
    for seed in range(30):
        verdict = activate([{"id": "w", "body": body}], chat, seed=seed).entries[0]
        assert not verdict["fired"] and "probability" in verdict["reason"]
    always = read_world(world(250)).body.model_dump(mode="json")
    assert activate([{"id": "w", "body": always}], chat).entries[0]["fired"]
