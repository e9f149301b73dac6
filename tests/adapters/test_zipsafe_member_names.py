"""Member names without the ZIP UTF-8 flag: UTF-8 bytes read as UTF-8 (as Info-ZIP, macOS and
most tools outside Windows write them), other bytes as code page 437."""

from __future__ import annotations

import io
import json
import struct
import zipfile

import pytest
from cards_support import read

from bunzai.adapters.common.zipsafe import open_archive
from bunzai.errors import BunzaiError

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


def _without_utf8_flag(data: bytes) -> bytes:
    """The archive with general purpose bit 11 cleared in every local and central header."""
    out = bytearray(data)
    for magic, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        found = out.find(magic)
        while found >= 0:
            flags = struct.unpack_from("<H", out, found + at)[0]
            struct.pack_into("<H", out, found + at, flags & ~0x800)
            found = out.find(magic, found + 4)
    return bytes(out)


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def _cp437_named(raw_name: bytes, data: bytes) -> bytes:
    """A one-member archive whose name is `raw_name` with no UTF-8 flag (as a DOS tool writes it)."""
    placeholder = "x" * len(raw_name)
    archive = _without_utf8_flag(_zip([(placeholder, data)]))
    return archive.replace(placeholder.encode(), raw_name)


@pytest.mark.parametrize("name", ["assets/emotion/images/기쁨.png", "assets/icon/images/été.png"])
def test_a_utf8_name_without_the_flag_reads_as_utf8(name):
    archive = open_archive(_without_utf8_flag(_zip([(name, PNG)])))
    assert archive.names() == [name]
    assert archive.read(name) == PNG


def test_a_name_that_is_not_utf8_keeps_its_code_page_437_reading():
    archive = open_archive(_cp437_named(b"caf\x82.png", PNG))  # 0x82 is é in code page 437
    assert archive.names() == ["café.png"]
    assert archive.read("café.png") == PNG


def test_two_spellings_of_one_name_are_a_duplicate():
    # The second member's name is the same UTF-8 bytes, without the flag (zipfile alone reads it as "├⌐.png").
    data = _zip([("é.png", PNG), ("ab.png", PNG)]).replace(b"ab.png", "é.png".encode())
    with pytest.raises(BunzaiError) as caught:
        open_archive(data)
    assert caught.value.code == "unsafe_archive"


def test_a_hand_zipped_charx_with_a_korean_asset_name_resolves_its_asset():
    name = "assets/emotion/images/기쁨.png"
    card = {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {
            "name": "K",
            "assets": [{"type": "emotion", "uri": "embeded://" + name, "name": "기쁨", "ext": "png"}],
        },
    }
    data = _without_utf8_flag(_zip([("card.json", json.dumps(card, ensure_ascii=False).encode()), (name, PNG)]))
    _adapter, decoded, _media = read(data, "k.charx")
    assert decoded.warnings == []
    link = decoded.pieces[0].assets[0]
    assert link.asset is not None and link.uri is None


def test_a_refused_name_is_refused_whichever_way_it_is_read():
    with pytest.raises(BunzaiError) as caught:
        open_archive(_without_utf8_flag(_zip([("../기쁨.png", PNG)])))
    assert caught.value.code == "unsafe_archive"
