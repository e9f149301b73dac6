"""Sniffing looks at chunk headers and the chunks that matter, and agrees with the full reader."""

from __future__ import annotations

import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.adapters.backyard.legacy_png import BackyardLegacyPng
from bunzai.adapters.common import png
from bunzai.adapters.risu.encrypted import RisuEncryptedCard
from bunzai.errors import BunzaiError

KEYWORDS = st.sampled_from(["chara", "ccv3", "Chara", "comment", "exif"])


def card(chunks: list[tuple[str, bytes]]) -> bytes:
    return png.replace_text(png.read_png(png.default_portrait()), set(), chunks)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(KEYWORDS, st.binary(max_size=40).map(lambda b: b.replace(b"\0", b"")))))
def test_chunk_headers_name_the_chunks_read_png_checks(chunks):
    data = card(chunks)
    assert png.chunk_headers(data) == png.read_png(data).chunks
    for chunk in png.chunk_headers(data):
        if chunk.type in png.TEXT_TYPES:
            assert png.text_of(data, chunk) in png.read_png(data).text_chunks()


def test_chunk_headers_stop_where_a_damaged_file_does():
    data = card([("chara", b"abc")])
    assert png.chunk_headers(data[:-5]) == png.read_png(data).chunks[:-1]


def test_the_encrypted_sniff_finds_the_mark_in_plain_and_compressed_chunks():
    sealed = card([("chara", b"  rcc||rccv1||xyz")])
    assert RisuEncryptedCard().sniff(sealed, "x.png", None) == 1.0
    assert RisuEncryptedCard().sniff(card([("chara", b"eyJ9")]), "x.png", None) == 0.0
    compressed = bytearray(card([]))
    body = b"ccv3\0\0" + zlib.compress(b"rcc||rccv1||xyz")
    chunk = png.Chunk(b"zTXt", 0, 0)  # built by hand below: the codec writes tEXt only
    raw = len(body).to_bytes(4, "big") + chunk.type + body + zlib.crc32(chunk.type + body).to_bytes(4, "big")
    iend = bytes(compressed).rindex(b"IEND") - 4
    compressed[iend:iend] = raw
    assert RisuEncryptedCard().sniff(bytes(compressed), "x.png", None) == 1.0


def test_a_damaged_encrypted_card_is_refused_as_damaged():
    sealed = bytearray(card([("chara", b"rcc||rccv1||xyz")]))
    sealed[40] ^= 0xFF  # inside a chunk: its CRC no longer matches
    with pytest.raises(BunzaiError) as caught:
        RisuEncryptedCard().read(bytes(sealed), "x.png", None)
    assert caught.value.code == "corrupt_file"
    with pytest.raises(BunzaiError) as caught:
        RisuEncryptedCard().read(b"not a png", "x.png", None)
    assert caught.value.code == "unsupported"


def test_the_backyard_sniff_ignores_exif_bytes_outside_an_exif_chunk():
    data = card([("comment", b"eXIf ASCII\0\0\0 here")])
    assert BackyardLegacyPng().sniff(data, "x.png", None) == 0.0
