"""Reading a PNG card hashes nothing: its media are named by LazyAssetRefs, hashed when a
draft, a dump or a convert asks, and a damaged image is refused there, before anything is stored."""

from __future__ import annotations

import hashlib
import json

import pytest
from cards_support import card_png

from bunzai.adapters.common import png
from bunzai.adapters.contract import Blob
from bunzai.adapters.inspect import read_bytes
from bunzai.changes.imports import drafts_from_bytes
from bunzai.errors import BunzaiError
from bunzai.model import dump_piece
from bunzai.model.base import AssetRef, LazyAssetRef
from bunzai.model.character import Character

CARD = {
    "spec": "chara_card_v2",
    "spec_version": "2.0",
    "data": {
        "name": "Ada",
        "description": "d",
        "first_mes": "hi",
        "extensions": {},
        "character_book": {"name": "B", "entries": [{"keys": ["k"], "content": "c", "id": 1}]},
    },
}


def _read(data: bytes):
    return read_bytes(data, "card.png")[1]


def _idat(data: bytes) -> png.Chunk:
    return next(chunk for chunk in png.read_png(data).chunks if chunk.type == b"IDAT")


def test_reading_a_card_hashes_neither_the_file_nor_the_portrait():
    data = card_png({"chara": CARD})
    decoded = _read(data)
    character = decoded.pieces[0]
    refs = [character.body.portrait, character.original.files["card.png"]]
    assert all(isinstance(ref, LazyAssetRef) and "sha256" not in ref.__dict__ for ref in refs)
    assert all("sha256" not in blob.__dict__ for blob in decoded.blobs)
    portrait = png.replace_text(png.read_png(data), {"chara", "ccv3"}, [])
    assert character.body.portrait.sha256 == hashlib.sha256(portrait).hexdigest()
    assert character.original.files["card.png"].sha256 == hashlib.sha256(data).hexdigest()


def test_a_lazy_ref_dumps_and_compares_as_the_plain_ref():
    decoded = _read(card_png({"chara": CARD}))
    character = decoded.pieces[0]
    dumped = character.model_dump(mode="json")  # hashes on the way out, in field order
    assert list(dumped["body"]["portrait"]) == ["sha256", "ext", "mime"]
    assert json.loads(_read(card_png({"chara": CARD})).pieces[0].model_dump_json()) == dumped
    again = Character.model_validate(dumped)
    assert type(again.body.portrait) is AssetRef
    assert again == character and character == again
    assert again.body.portrait == character.body.portrait and character.body.portrait == again.body.portrait
    other = AssetRef(sha256="0" * 64, ext="png", mime="image/png")
    assert character.body.portrait != other and other != character.body.portrait


def test_a_lazy_ref_dumped_before_being_asked_carries_its_hash():
    decoded = _read(card_png({"chara": CARD}))
    ref = decoded.pieces[0].body.portrait
    assert "sha256" not in ref.__dict__
    assert ref.model_dump()["sha256"] == decoded.blobs[1].sha256


def test_an_import_draft_names_the_media_by_their_hashes():
    data = card_png({"chara": CARD})
    drafts = drafts_from_bytes(data, "card.png")
    proposed = drafts[0]["proposed"]
    assert proposed["original"]["files"]["card.png"]["sha256"] == hashlib.sha256(data).hexdigest()
    assert proposed["body"]["portrait"]["sha256"] in drafts[0]["attachments"]


def test_damaged_image_data_is_refused_when_the_image_is_named():
    data = bytearray(card_png({"chara": CARD}))
    data[_idat(bytes(data)).data_start + 3] ^= 0xFF  # inside the image data: only its CRC tells
    damaged = bytes(data)
    decoded = _read(damaged)  # the text reads: nothing here needs the image
    assert decoded.pieces[0].name == "Ada"
    for ask in (
        lambda: decoded.pieces[0].body.portrait.sha256,
        lambda: dump_piece(decoded.pieces[0]),
        lambda: decoded.blobs[0].data,
        lambda: drafts_from_bytes(damaged, "card.png"),
    ):
        with pytest.raises(BunzaiError) as caught:
            ask()
        assert caught.value.code == "corrupt_file" and "bad CRC in the IDAT chunk" in caught.value.message


def test_read_png_checks_every_crc_unless_told_to_defer_image_data():
    data = bytearray(card_png({"chara": CARD}))
    data[_idat(bytes(data)).data_start + 3] ^= 0xFF
    with pytest.raises(BunzaiError):
        png.read_png(bytes(data))
    image = png.read_png(bytes(data), defer=True)
    assert [chunk.type for chunk in image.unchecked] == [b"IDAT"]
    with pytest.raises(BunzaiError):
        png.check_crcs(image)
    png.check_crcs(png.read_png(card_png({"chara": CARD}), defer=True))  # a sound file passes


V3 = {**CARD, "spec": "chara_card_v3", "spec_version": "3.0"}


def _text_chunk(data: bytes, keyword: str) -> png.Chunk:
    return next(chunk for chunk in png.read_png(data, defer=True).chunks if chunk.keyword == keyword)


def _crc_broken(data: bytes, keyword: str, inside: bool = False) -> bytes:
    """`data` with the `keyword` chunk's CRC wrong: its last CRC byte flipped, or (`inside`) one
    base64 character of its text changed, so its text is another."""
    broken = bytearray(data)
    chunk = _text_chunk(data, keyword)
    if inside:
        at = chunk.data_end - 8  # within the base64, before any padding
        broken[at] = ord("A") if broken[at] != ord("A") else ord("B")
    else:
        broken[chunk.end - 1] ^= 0xFF
    return bytes(broken)


def test_the_twin_chara_chunk_is_checked_when_the_file_is_named():
    # SillyTavern's two chunks: the chara one is shown to be the ccv3 one's twin in base64 and
    # never decoded, so its CRC is checked with the image data's, before anything is stored.
    sound = card_png({"chara": CARD, "ccv3": V3})
    damaged = _crc_broken(sound, "chara")
    decoded, expected = _read(damaged).pieces[0], _read(sound).pieces[0]
    unhashed = {"portrait"}  # comparing the portraits would hash them: that refuses (below)
    assert decoded.body.model_dump(exclude=unhashed) == expected.body.model_dump(exclude=unhashed)
    assert decoded.original.document == expected.original.document
    for ask in (lambda: dump_piece(decoded), lambda: drafts_from_bytes(damaged, "card.png")):
        with pytest.raises(BunzaiError) as caught:
            ask()
        assert caught.value.code == "corrupt_file" and "bad CRC in the tEXt chunk" in caught.value.message


@pytest.mark.parametrize(
    ("chunks", "keyword", "inside"),
    [
        ({"chara": CARD, "ccv3": V3}, "ccv3", False),  # the chunk read: checked as it is read
        ({"chara": CARD, "ccv3": V3}, "chara", True),  # not the twin: read on its own, checked first
        ({"chara": CARD}, "chara", False),  # the only chunk
    ],
)
def test_a_card_chunk_whose_text_is_read_is_checked_at_read(chunks, keyword, inside):
    with pytest.raises(BunzaiError) as caught:
        _read(_crc_broken(card_png(chunks), keyword, inside))
    assert caught.value.code == "corrupt_file" and "bad CRC in the tEXt chunk" in caught.value.message


def test_check_chunk_checks_one_chunk_and_leaves_it_checked():
    data = card_png({"chara": CARD, "ccv3": V3})
    image = png.read_png(data, defer=True, lazy_text=frozenset({"chara"}))
    chara = _text_chunk(data, "chara")
    assert [chunk.keyword or chunk.type for chunk in image.unchecked] == [b"IDAT", "chara"]
    assert png.check_chunk(image, chara).unchecked == tuple(c for c in image.unchecked if c is not chara)
    broken = png.read_png(_crc_broken(data, "chara"), defer=True, lazy_text=frozenset({"chara"}))
    with pytest.raises(BunzaiError, match="bad CRC in the tEXt chunk"):
        png.check_chunk(broken, chara)
    with pytest.raises(BunzaiError, match="bad CRC in the tEXt chunk"):
        png.read_png(_crc_broken(data, "chara"), defer=True)  # not named lazy: checked


def test_a_blob_hashed_already_gives_a_plain_ref():
    blob = Blob(b"abc", "png", "image/png")
    assert type(blob.ref()) is LazyAssetRef
    assert blob.sha256 == hashlib.sha256(b"abc").hexdigest()
    assert type(blob.ref()) is AssetRef and blob.ref().sha256 == blob.sha256


def test_a_png_card_is_walked_once_from_sniffing_to_reading(monkeypatch):
    walks = []
    real = png.chunk_headers
    monkeypatch.setattr(png, "chunk_headers", lambda data: walks.append(len(data)) or real(data))
    data = card_png({"chara": CARD})
    assert read_bytes(data, "ada.png")[1].pieces[0].name
    assert walks == [len(data)]  # every image sniffer and the reader share inspect's walk
