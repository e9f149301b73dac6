"""The PNG codec refuses damaged files with coded errors and reads every text chunk kind."""

from __future__ import annotations

import base64
import json
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from cards_support import card_png, cross, png_documents, read

from bunzai import limits
from bunzai.adapters.common import png
from bunzai.errors import BunzaiError

CARD = {
    "spec": "chara_card_v2",
    "spec_version": "2.0",
    "data": {
        "name": "Ada",
        "description": "d",
        "personality": "",
        "scenario": "",
        "first_mes": "hi",
        "mes_example": "",
        "creator_notes": "",
        "system_prompt": "",
        "post_history_instructions": "",
        "alternate_greetings": [],
        "tags": [],
        "creator": "",
        "character_version": "",
        "extensions": {},
    },
}


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _with_chunk(chunk: bytes) -> bytes:
    image = png.default_portrait()
    return image[:-12] + chunk + image[-12:]


def _code(data: bytes) -> str:
    with pytest.raises(BunzaiError) as caught:
        read(data, "card.png", "sillytavern.card.png")
    return caught.value.code


def test_default_portrait_is_a_valid_png():
    image = png.read_png(png.default_portrait())
    assert [chunk.type for chunk in image.chunks] == [b"IHDR", b"IDAT", b"IEND"]


def test_truncated_png_is_corrupt():
    assert _code(card_png({"chara": CARD})[:-20]) == "corrupt_file"


def test_missing_iend_is_corrupt():
    data = card_png({"chara": CARD})
    assert _code(data[:-12]) == "corrupt_file"


def test_bad_crc_is_corrupt():
    data = bytearray(card_png({"chara": CARD}))
    data[40] ^= 0xFF
    assert _code(bytes(data)) == "corrupt_file"


def test_forged_chunk_length_is_too_large():
    data = png.default_portrait()
    forged = data[:8] + struct.pack(">I", limits.PNG_CHUNK_MAX_BYTES + 1) + data[12:]
    assert _code(forged) == "too_large"


def test_not_a_png_is_corrupt():
    assert _code(b"\x89PNG\r\n\x1a\x0b" + b"\0" * 40) == "corrupt_file"


@pytest.mark.parametrize(
    "payload",
    [b"not*base64!", base64.b64encode(b"\xff\xfe{}"), base64.b64encode(b"[1, 2]"), base64.b64encode(b"{not json")],
)
def test_bad_card_chunks_give_coded_errors(payload):
    assert _code(_with_chunk(_chunk(b"tEXt", b"chara\0" + payload))) in ("corrupt_file", "invalid_json")


def test_png_without_card_chunks_is_unrecognized():
    assert _code(png.default_portrait()) == "unrecognized_file"


def test_ztxt_bomb_stops_at_the_limit(monkeypatch):
    monkeypatch.setattr(limits, "PNG_TEXT_INFLATE_MAX_BYTES", 1000)
    bomb = zlib.compress(b"A" * 100_000)
    assert _code(_with_chunk(_chunk(b"zTXt", b"chara\0\0" + bomb))) == "too_large"


def test_ztxt_and_itxt_cards_read():
    text = base64.b64encode(json.dumps(CARD).encode())
    for chunk in (
        _chunk(b"zTXt", b"chara\0\0" + zlib.compress(text)),
        _chunk(b"iTXt", b"Chara\0\1\0en\0\0" + zlib.compress(text)),
        _chunk(b"iTXt", b"CHARA\0\0\0\0\0" + text),
    ):
        _adapter, decoded, _media = read(_with_chunk(chunk), "ada.png")
        assert decoded.pieces[0].name == "Ada"


def test_ccv3_only_card_reads_and_writes_both_chunks():
    v3 = dict(CARD, spec="chara_card_v3", spec_version="3.0")
    v3["data"] = dict(CARD["data"], nickname="Addy", group_only_greetings=[])
    data = card_png({"ccv3": v3})
    _adapter, decoded, _media = read(data, "ada.png")
    assert decoded.pieces[0].body.nickname == "Addy"
    written = cross(data, "ada.png", edit=lambda p: p.model_copy(update={"name": "Ada L"}))
    documents = png_documents(written.data)
    assert list(documents) == ["chara", "ccv3"]
    assert documents["ccv3"]["data"]["nickname"] == "Addy" and documents["chara"]["data"]["name"] == "Ada L"


def test_chunk_keywords_are_replaced_case_insensitively_and_others_kept():
    data = _with_chunk(
        _chunk(b"tEXt", b"Comment\0hello") + _chunk(b"tEXt", b"CHARA\0" + base64.b64encode(json.dumps(CARD).encode()))
    )
    written = cross(data, "ada.png", edit=lambda p: p.model_copy(update={"name": "Bea"}))
    keywords = [text.keyword for text in png.read_png(written.data).text_chunks()]
    assert keywords == ["Comment", "chara", "ccv3"]


def test_trailing_bytes_after_iend_are_kept():
    data = card_png({"chara": CARD}) + b"trailer"
    written = cross(data, "ada.png", edit=lambda p: p.model_copy(update={"name": "Bea"}))
    assert written.data.endswith(b"trailer")


def test_card_without_portrait_gets_the_default_image_and_says_so():
    data = json.dumps(CARD).encode()
    crossing = cross(data, "ada.json", "sillytavern.card.png")
    assert [loss.code for loss in crossing.losses if loss.pointer == "/body/portrait"] == [
        "card.portrait.default_image"
    ]
    assert png_documents(crossing.data)["chara"]["data"]["name"] == "Ada"


def test_a_png_the_sniffers_walked_is_checked_as_one_walked_afresh():
    data = card_png({"chara": {"spec": "chara_card_v2", "data": {"name": "Ada"}}}) + b"tail"
    fresh = png.read_png(bytes(bytearray(data)), defer=True)
    again = png.read_png(data, defer=True, walked=png.headers(data))  # the sniffers' walk, checked
    assert (again.chunks, again.trailer_start, again.unchecked) == (fresh.chunks, fresh.trailer_start, fresh.unchecked)
    text = next(chunk for chunk in again.chunks if chunk.type == b"tEXt")
    broken = bytearray(data)
    broken[text.end - 1] ^= 0xFF  # the card chunk's CRC
    broken = bytes(broken)
    with pytest.raises(BunzaiError, match="bad CRC in the tEXt chunk"):
        png.read_png(broken, defer=True, walked=png.headers(broken))


def test_the_lorebook_piece_is_what_validating_it_gives():
    from bunzai.adapters.inspect import read_bytes
    from bunzai.model.lorebook import Lorebook

    book = {
        "name": "B",
        "extensions": {"x": 1},
        "entries": [
            {"keys": ["k"], "content": "c", "id": 1, "extensions": {}},
            {"keys": ["j"], "content": "d", "id": 2},
        ],
    }
    data = card_png({"chara": {"spec": "chara_card_v2", "data": {"name": "Ada", "character_book": book}}})
    character, lorebook = read_bytes(data, "card.png")[1].pieces
    again = Lorebook.model_validate(lorebook.model_dump())
    assert again == lorebook and again.model_dump(mode="json") == lorebook.model_dump(mode="json")
    assert lorebook.body.model_fields_set == again.body.model_fields_set
    assert lorebook.body.entries == character.body.book.entries and len(lorebook.body.entries) == 2


@settings(max_examples=300, deadline=None)
@given(
    body=st.binary(max_size=200)
    | st.builds(lambda key, text: key + b"\0" + text, st.binary(max_size=90), st.binary(max_size=40))
    | st.builds(
        lambda size, text: b"k" * size + b"\0" + text, st.sampled_from([0, 1, 78, 79, 80, 81]), st.binary(max_size=8)
    )
)
def test_a_text_chunk_keyword_is_one_to_79_bytes_before_the_first_nul(body):
    # The reading the PNG spec gives (and the codec had as `partition`): the keyword is what
    # precedes the first NUL, 1 to 79 bytes; anything else has no valid keyword.
    kind = b"tEXt"
    chunk_bytes = struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    data = png.PNG_SIGNATURE + chunk_bytes
    chunk = png.Chunk(kind, len(png.PNG_SIGNATURE), len(data))
    keyword, sep, rest = body.partition(b"\0")
    if sep and 1 <= len(keyword) <= 79:
        assert png.text_of(data, chunk) == (keyword.decode("latin-1"), rest, chunk)
    else:
        with pytest.raises(BunzaiError, match="no valid keyword"):
            png.text_of(data, chunk)
