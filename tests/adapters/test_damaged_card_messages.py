"""What a damaged card is told, by what is wrong with it: an empty file is empty (not text), and a
card chunk holding no base64 says so (Node's lenient decoder makes bytes of any text, which used
to be blamed on UTF-8)."""

from __future__ import annotations

import base64
import struct
import zlib

import pytest

from bunzai.adapters.common.png import PNG_SIGNATURE
from bunzai.adapters.inspect import read_bytes
from bunzai.errors import BunzaiError


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _png(text: bytes) -> bytes:
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"tEXt", b"chara\0" + text)
        + _chunk(b"IDAT", zlib.compress(b"\0\0\0\0"))
        + _chunk(b"IEND", b"")
    )


def _refusal(data: bytes, name: str) -> BunzaiError:
    with pytest.raises(BunzaiError) as refused:
        read_bytes(data, name)
    return refused.value


@pytest.mark.parametrize(("data", "said"), [(b"", "it is empty"), (b" \n", "it holds only white space")])
def test_an_empty_png_is_said_to_be_empty(data, said):
    error = _refusal(data, "zero.png")
    assert (error.code, error.message) == ("unrecognized_file", f"zero.png is not a PNG: {said}")


@pytest.mark.parametrize(
    ("name", "data", "code", "said"),
    [
        ("Eldoria.json", b"", "invalid_json", "Eldoria.json: it is empty"),
        ("Eldoria.json", b"\n\t ", "invalid_json", "Eldoria.json: it holds only white space"),
        ("Alice.yaml", b"", "unrecognized_file", "Alice.yaml: it is empty"),
    ],
)
def test_an_empty_text_file_is_said_to_be_empty_with_its_readers_code(name, data, code, said):
    # not the reader's "Expecting value at line 1 column 1" or "a JSON NoneType"; the code stays
    # the reader's, by which a folder's walk tells a damaged card file from a stray one
    error = _refusal(data, name)
    assert (error.code, error.message, error.hint) == (
        code,
        said,
        "the file was not copied whole; copy or export it again",
    )


@pytest.mark.parametrize("text", [b"this is !!! not base64 ***", b"This card was removed by the site"])
def test_a_chunk_holding_no_base64_says_so(text):
    error = _refusal(_png(text), "nb.png")
    assert error.code == "corrupt_file" and "is not valid base64" in error.message


@pytest.mark.parametrize("text", [b"", b" \n"])
def test_an_empty_chunk_says_so(text):
    error = _refusal(_png(text), "nb.png")
    assert error.code == "corrupt_file" and error.message.endswith("is empty")


@pytest.mark.parametrize(
    "text",
    [
        base64.encodebytes(b'{"name": "x", trunc'),  # wrapped lines: base64 as some writers give it
        base64.urlsafe_b64encode(b'{"name": "x", trunc').rstrip(b"="),
    ],
)
def test_base64_a_writer_might_give_is_read_and_its_json_blamed(text):
    error = _refusal(_png(text), "nj.png")
    assert error.code == "invalid_json" and "base64" not in error.message


@pytest.mark.parametrize("text", [b"Removed", b"Removed\n", b"abcd"])
def test_a_word_in_place_of_the_card_is_said_to_be_text_not_a_card(text):
    # a word of the base64 alphabet decodes (as Node decodes it) to bytes that are no UTF-8: the
    # chunk itself is ASCII text, so it is not called "not UTF-8 text"
    error = _refusal(_png(text), "word.png")
    assert error.code == "corrupt_file"
    word = text.strip().decode()
    assert f"holds the text {word!r}, not a card" in error.message
    assert "is not UTF-8 text" not in error.message


def test_a_long_damaged_chunk_is_described_not_quoted():
    text = b"Zm9v" + b"/" * 200  # base64 alphabet, decoding to bytes that are no UTF-8
    error = _refusal(_png(text), "long.png")
    assert error.code == "corrupt_file" and f"holds {len(text)} characters of text, not a card" in error.message
