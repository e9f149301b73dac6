"""The PNG codec refuses damaged files with coded errors and reads every text chunk kind."""

from __future__ import annotations

import base64
import binascii
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


# --- base64 as SillyTavern and RisuAI read it: Node's Buffer.from(text, "base64") ------------

_NODE_VALUES = {
    **{c: i for i, c in enumerate(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")},
    ord("-"): 62,
    ord("_"): 63,
}


def _node_reference(text: bytes) -> bytes:
    """Node's decoder (src/base64-inl.h, base64_decode_group_slow) one character at a time:
    a byte outside both alphabets is skipped, `=` stops it, each character after the first of
    a group of four completes a byte."""
    out, group = bytearray(), []
    for char in text:
        if char == ord("="):
            break
        if char not in _NODE_VALUES:
            continue
        group.append(_NODE_VALUES[char])
        if len(group) == 2:
            out.append((group[0] << 2 | group[1] >> 4) & 0xFF)
        elif len(group) == 3:
            out.append((group[1] << 4 | group[2] >> 2) & 0xFF)
        elif len(group) == 4:
            out.append((group[2] << 6 | group[3]) & 0xFF)
            group = []
    return bytes(out)


# What `node -e 'Buffer.from(text, "base64")'` printed (Node 20) for each text.
@pytest.mark.parametrize(
    ("text", "decoded"),
    [
        (b"QUJD", b"ABC"),
        (b"QQ", b"A"),  # no padding
        (b"QUI", b"AB"),
        (b"QR==", b"A"),  # spare bits ignored
        (b"QQ=", b"A"),
        (b"QQ==QQ==", b"A"),  # the first `=` ends the text
        (b"QUJDRA==QUJD", b"ABCD"),
        (b"Q=Q=", b""),
        (b"QU JD\n", b"ABC"),  # whitespace skipped
        (b"Q*U!J.D", b"ABC"),  # so is any other stray byte
        (b"-_-_", b"\xfb\xff\xbf"),  # the URL-safe alphabet
        (b"+/+/", b"\xfb\xff\xbf"),
        (b"QUJDR", b"ABC"),  # a lone last character decodes to nothing
    ],
)
def test_node_base64_decodes_as_node_does(text, decoded):
    assert png.node_base64(text) == decoded == _node_reference(text)


_TEXT = st.lists(st.sampled_from(list(b"QUJDRWFiYzAxMjM0+/-_= \n\t.*\xc3\x00")), max_size=40).map(bytes)


@settings(max_examples=500, deadline=None)
@given(text=_TEXT)
def test_the_card_decoder_reads_what_node_reads(text):
    expected = _node_reference(text)
    assert png.node_base64(text) == expected
    if expected or not text.strip():
        assert png.card_base64(text, "the chunk") == expected  # the strict fast path agrees where it accepts
    else:
        with pytest.raises(BunzaiError) as caught:
            png.card_base64(text, "the chunk")
        assert caught.value.code == "corrupt_file"


# pybase64's strict decoder (card_base64's fast path) vectorises past 32 characters and has its
# own padding rules: whatever it accepts, of any length, must be what Node reads.
@settings(max_examples=500, deadline=None)
@given(raw=st.binary(max_size=300), cut=st.integers(0, 3), tail=_TEXT, urlsafe=st.booleans())
def test_the_fast_strict_decoder_accepts_only_what_node_reads_alike(raw, cut, tail, urlsafe):
    text = (base64.urlsafe_b64encode if urlsafe else base64.b64encode)(raw)
    text = text[: len(text) - cut] + tail
    try:
        decoded = png._strict_b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return
    assert decoded == _node_reference(text)


@settings(max_examples=200, deadline=None)
@given(raw=st.binary(max_size=60), urlsafe=st.booleans(), padded=st.booleans())
def test_any_encoding_of_bytes_decodes_back(raw, urlsafe, padded):
    text = (base64.urlsafe_b64encode if urlsafe else base64.b64encode)(raw)
    text = text if padded else text.rstrip(b"=")
    assert png.card_base64(text, "the chunk") == raw


@pytest.mark.parametrize(
    "encode",
    [
        lambda raw: base64.b64encode(raw).rstrip(b"="),
        base64.urlsafe_b64encode,
        lambda raw: b"\n".join(base64.b64encode(raw)[i : i + 76] for i in range(0, len(base64.b64encode(raw)), 76)),
    ],
)
def test_unpadded_url_safe_or_wrapped_card_chunks_read_as_sillytavern_reads_them(encode):
    card = json.loads(json.dumps(CARD))
    card["data"]["description"] = "ÿ?>~" * 7  # characters whose UTF-8 encodes to `+`, `/` or `=`-padded base64
    data = _with_chunk(_chunk(b"tEXt", b"chara\0" + encode(json.dumps(card).encode())))
    _adapter, decoded, _media = read(data, "card.png", "sillytavern.card.png")
    assert decoded.pieces[0].body.description == card["data"]["description"]
