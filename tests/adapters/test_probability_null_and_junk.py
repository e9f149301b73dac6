"""A probability that is null or no number reads as the platform rolls it.

SillyTavern's scan (world-info.js checkWorldInfo, verifyProbability) rolls
`Math.random() * 100 <= entry.probability` unless `probability === 100`: JavaScript compares a
null as 0 and a string as its number, NaN never passing. Nothing fills a world entry's null in,
so with `useProbability` it never fires; a card's book is filled in on import
(convertCharacterBook, `extensions.probability ?? 100`). Agnai copies SillyTavern's values and
never rolls them (common/memory.ts), so they read as SillyTavern's.
"""

from __future__ import annotations

import json
import math

from hypothesis import given
from hypothesis import strategies as st

from bunzai.adapters.common.card_book import js_number, read_entry, read_probability, read_world_probability
from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece
from bunzai.render.lore import activate

WORLD = "sillytavern.world"
AGNAI = "agnai.memory.json"
CHAT = [{"role": "user", "content": "a dragon"}]


def no_media(ref):
    raise AssertionError("no media here")


def world_piece(probability, use_probability=True):
    entry = {"uid": 0, "key": ["dragon"], "content": "Dragons sleep.", "probability": probability}
    data = json.dumps({"entries": {"0": dict(entry, useProbability=use_probability)}}).encode()
    return get_adapter(WORLD).read(data, "Test.json", json.loads(data)).pieces[0]


def fires(piece, seeds=range(30)) -> set[bool]:
    body = piece.body.model_dump(mode="json")
    return {activate([{"id": "w", "body": body}], CHAT, seed=seed).entries[0]["fired"] for seed in seeds}


def test_a_null_world_probability_never_fires_and_the_file_keeps_its_null():
    piece = world_piece(None)
    assert piece.body.entries[0].probability == 0 and piece.body.entries[0].use_probability
    assert fires(piece) == {False}
    piece.body.entries[0].content = "edited"
    written = json.loads(convert_piece(piece, WORLD, no_media).data)["entries"]["0"]
    assert written["probability"] is None and written["content"] == "edited"


def test_a_null_world_probability_without_use_probability_still_always_fires():
    piece = world_piece(None, use_probability=False)
    assert fires(piece) == {True}


def test_a_null_world_probability_crosses_as_0_not_as_the_100_a_card_book_import_fills_in():
    piece = world_piece(None)
    book = json.loads(convert_piece(piece, "lorebook_v3.json", no_media).data)
    assert book["data"]["entries"][0]["extensions"]["probability"] == 0
    agnai = json.loads(convert_piece(piece, AGNAI, no_media).data)
    assert agnai["entries"][0]["probability"] == 0


def test_a_null_card_book_probability_reads_100_as_sillytavern_imports_it():
    entry = {"keys": ["dragon"], "content": "c", "extensions": {"probability": None, "useProbability": True}}
    assert read_entry(entry, 0)["probability"] == 100
    assert read_entry({"keys": [], "content": "", "extensions": {}}, 0)["probability"] == 100


def test_a_probability_that_is_no_number_never_fires():
    for junk in ("x", "inf", "NaN", "1_0", "", {}, [1, 2]):
        assert read_probability(junk) == 0 and read_world_probability(junk) == 0
    piece = world_piece("never")
    assert piece.body.entries[0].probability == 0 and fires(piece) == {False}
    written = json.loads(convert_piece(piece, WORLD, no_media).data)["entries"]["0"]
    assert written["probability"] == "never"


def test_numbers_written_as_text_compare_as_javascript_reads_them():
    cases = {" 40 ": 40, "0x1E": 30, "0b11": 3, "1e1": 10, "+Infinity": 100, "-Infinity": 0, ".5": 1, True: 1}
    assert {text: read_probability(text) for text in cases} == cases


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_number_written_as_text_reads_as_that_number(number):
    assert js_number(repr(number)) == number
    assert read_probability(repr(number)) == read_probability(number)


@given(st.text(alphabet="0123456789_inftyINFTYa.-+ e\u0661", max_size=8))
def test_text_python_reads_as_a_number_but_javascript_does_not_is_nan(text):
    stripped = text.strip()
    javascript = stripped == "" or _decimal(stripped)
    assert math.isnan(js_number(text)) is not javascript


def _decimal(text: str) -> bool:
    """JavaScript's StrDecimalLiteral, spelled out by hand: sign, then Infinity or digits."""
    body = text[1:] if text[:1] in "+-" else text
    if body == "Infinity":
        return True
    mantissa, e, exponent = body.replace("E", "e").partition("e")
    exponent = exponent[1:] if exponent[:1] in "+-" else exponent
    if e and not _ascii_digits(exponent):
        return False
    whole, _, fraction = mantissa.partition(".")
    return bool(whole + fraction) and _ascii_digits(whole, fraction)


def _ascii_digits(*parts: str) -> bool:
    return all(all(c in "0123456789" for c in part) for part in parts) and any(parts)


# --- Agnai --------------------------------------------------------------------------------


def memory_book(probability) -> dict:
    entry = {"name": "Tower", "entry": "The tower glows.", "keywords": ["tower"], "priority": 10, "weight": 5}
    entry |= {"enabled": True, "probability": probability, "useProbability": True}
    return {"kind": "memory", "name": "Eldoria", "description": "", "entries": [entry]}


def read_memory(probability):
    adapter, decoded = read_bytes(json.dumps(memory_book(probability)).encode(), "Eldoria.json")
    assert adapter.format_id == AGNAI
    return decoded.pieces[0]


def test_an_agnai_probability_that_never_fires_in_sillytavern_does_not_read_as_always():
    assert [read_memory(value).body.entries[0].probability for value in (-5, None, "x", 250, 40)] == [0, 0, 0, 100, 40]
    assert fires(read_memory(-5)) == {False}


def test_an_agnai_negative_probability_is_kept_when_the_book_is_written_back():
    piece = read_memory(-5)
    piece.body.entries[0].content = "edited"
    written = json.loads(convert_piece(piece, AGNAI, no_media).data)["entries"][0]
    assert written["probability"] == -5 and written["entry"] == "edited"


def test_a_probability_agnai_never_rolls_is_named_when_crossing_into_agnai() -> None:
    # Agnai keeps probability and useProbability as written but its prompt builder
    # (common/memory.ts) never rolls them: a 40% entry fires every time there
    from bunzai.convert import convert_piece
    from bunzai.model.lorebook import Lorebook

    entries = [
        {"uid": 0, "keys": ["a"], "content": "x", "probability": 40},
        {"uid": 1, "keys": ["b"], "content": "y", "probability": 40, "use_probability": False},
        {"uid": 2, "keys": ["c"], "content": "z"},
    ]
    book = Lorebook(id="b", name="b", body={"entries": entries})
    crossed = convert_piece(book, "agnai.memory.json", lambda ref: b"")
    rolled = [loss for loss in crossed.losses if loss.code == "agnai.entry.probability_not_rolled"]
    assert [loss.pointer for loss in rolled] == ["/body/entries/0/probability"]
    assert "(40%)" in rolled[0].why
