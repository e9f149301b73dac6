"""RisuAI's V3 PNG assets: `chara-ext-asset_:N` chunks named by `__asset:N` uris, read and kept."""

from __future__ import annotations

import base64
import io
import json
import zipfile

import pytest
from cards_support import cross, edit_body, read

from bunzai import limits
from bunzai.adapters.common import png
from bunzai.adapters.contract import Blob
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError

IMAGE = png.default_portrait()
SPRITE = IMAGE + b"sprite"  # any bytes: the chunk's base64 is what matters
BGM = b"ID3\x03\x00\x00\x00fake mp3"


def v3(assets: list[dict], **data) -> dict:
    return {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {
            "name": "Risa",
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
            "group_only_greetings": [],
            "assets": assets,
            **data,
        },
    }


ASSETS = [
    {"type": "icon", "uri": "ccdefault:", "name": "main", "ext": "png"},
    {"type": "emotion", "uri": "__asset:0", "name": "happy", "ext": "png"},
    {"type": "x-risu-asset", "uri": "__asset:1", "name": "bgm", "ext": "mp3"},
]


def risu_png(
    card: dict | None = None,
    chunks: list[tuple[str, bytes]] | None = None,
    image: bytes = IMAGE,
) -> bytes:
    """A PNG as RisuAI's V3 export writes it: the asset chunks, then `ccv3` only, before IEND."""
    if chunks is None:
        chunks = [("chara-ext-asset_:0", base64.b64encode(SPRITE)), ("chara-ext-asset_:1", base64.b64encode(BGM))]
    text = base64.b64encode(json.dumps(card or v3(ASSETS)).encode())
    return png.replace_text(png.read_png(image), set(), [*chunks, ("ccv3", text)])


def links(piece) -> list[dict]:
    return [link.model_dump(mode="json") for link in piece.assets]


def keywords(data: bytes) -> list[str]:
    return [chunk.keyword for chunk in png.read_png(data).chunks if chunk.keyword]


def ccv3_of(data: bytes) -> dict:
    return json.loads(base64.b64decode(png.find_text(png.read_png(data), "ccv3").text))


def test_asset_chunks_read_as_stored_assets_and_ccdefault_stays_a_uri():
    _adapter, decoded, media = read(risu_png(), "risa.png")
    piece = decoded.pieces[0]
    icon, happy, bgm = links(piece)
    assert icon == {"role": "icon", "name": "main", "ext": "png", "asset": None, "uri": "ccdefault:"}
    assert (happy["role"], happy["name"], happy["uri"]) == ("emotion", "happy", None)
    assert media(piece.assets[1].asset) == SPRITE and happy["asset"]["mime"] == "image/png"
    assert media(piece.assets[2].asset) == BGM and bgm["asset"]["ext"] == "mp3"
    assert decoded.warnings == []
    # The portrait is the image alone: neither the card chunk nor the asset chunks.
    assert media(piece.body.portrait) == IMAGE


def test_an_unchanged_card_is_written_back_as_the_original_file():
    data = risu_png()
    crossing = cross(data, "risa.png")
    assert crossing.data == data and crossing.losses == []


def test_an_edited_card_keeps_its_asset_chunks_and_reads_back_the_same_assets():
    data = risu_png()
    _adapter, decoded, _media = read(data, "risa.png")
    crossing = cross(data, "risa.png", edit=edit_body(description="changed"))
    assert crossing.losses == []
    assert keywords(crossing.data) == ["chara-ext-asset_:0", "chara-ext-asset_:1", "chara", "ccv3"]
    assert ccv3_of(crossing.data)["data"]["assets"] == ASSETS  # entries kept as written
    _adapter, back, _media = read(crossing.data, "risa.png")
    assert links(back.pieces[0]) == links(decoded.pieces[0])
    assert back.pieces[0].body.description == "changed"


def test_a_removed_asset_takes_its_chunk_with_it():
    def drop_happy(piece):
        return piece.model_copy(update={"assets": [piece.assets[0], piece.assets[2]]})

    crossing = cross(risu_png(), "risa.png", edit=drop_happy)
    assert crossing.losses == []
    assert keywords(crossing.data) == ["chara-ext-asset_:1", "chara", "ccv3"]
    assert [entry["uri"] for entry in ccv3_of(crossing.data)["data"]["assets"]] == ["ccdefault:", "__asset:1"]


def test_crossing_to_charx_stores_the_sprite_and_the_bgm_as_members():
    crossing = cross(risu_png(), "risa.png", "charx")
    with zipfile.ZipFile(io.BytesIO(crossing.data)) as archive:
        contents = {name: archive.read(name) for name in archive.namelist()}
    assert SPRITE in contents.values() and BGM in contents.values()
    assert not [loss for loss in crossing.losses if loss.action == "dropped"]


def test_crossing_to_ccv3_json_writes_the_assets_as_data_uris():
    crossing = cross(risu_png(), "risa.png", "ccv3.json")
    entries = json.loads(crossing.data)["data"]["assets"]
    assert entries[0]["uri"] == "ccdefault:"
    assert base64.b64decode(entries[1]["uri"].split(",", 1)[1]) == SPRITE
    assert base64.b64decode(entries[2]["uri"].split(",", 1)[1]) == BGM
    assert "card.key.not_carried" not in [loss.code for loss in crossing.losses]


def test_other_keyword_and_uri_spellings_and_lenient_base64_read():
    card = v3(
        [
            {"type": "emotion", "uri": "asset:7", "name": "joy", "ext": "png"},
            {"type": "emotion", "uri": "__asset:x", "name": "sad", "ext": "png"},
        ]
    )
    chunks = [
        ("chara-ext-asset_7", base64.urlsafe_b64encode(SPRITE).rstrip(b"=")),  # no colon, URL-safe, unpadded
        ("chara-ext-asset_:x", b"SUQz\nAw=="),
    ]
    _adapter, decoded, media = read(risu_png(card, chunks), "risa.png")
    joy, sad = decoded.pieces[0].assets
    assert media(joy.asset) == SPRITE and media(sad.asset) == b"ID3\x03"


def test_a_uri_naming_no_chunk_is_kept_with_a_coded_warning():
    card = v3([{"type": "emotion", "uri": "__asset:9", "name": "lost", "ext": "png"}])
    data = risu_png(card, [])
    _adapter, decoded, _media = read(data, "risa.png")
    assert links(decoded.pieces[0]) == [
        {"role": "emotion", "name": "lost", "ext": "png", "asset": None, "uri": "__asset:9"}
    ]
    assert len(decoded.warnings) == 1 and decoded.warnings[0].startswith("card.asset.missing: asset 0")
    crossing = cross(data, "risa.png", edit=edit_body(description="changed"))
    assert crossing.losses == [] and ccv3_of(crossing.data)["data"]["assets"][0]["uri"] == "__asset:9"


def test_a_chunk_with_no_base64_is_corrupt_and_a_huge_one_too_large(monkeypatch):
    card = v3([{"type": "emotion", "uri": "__asset:0", "name": "x", "ext": "png"}])
    with pytest.raises(BunzaiError) as caught:
        read(risu_png(card, [("chara-ext-asset_:0", b"!!!!")]), "risa.png")
    assert caught.value.code == "corrupt_file" and "chara-ext-asset_:0" in caught.value.message
    monkeypatch.setattr(limits, "CARD_DATA_URI_MAX_BYTES", 8)
    with pytest.raises(BunzaiError) as caught:
        read(risu_png(card, [("chara-ext-asset_:0", base64.b64encode(b"x" * 64))]), "risa.png")
    assert caught.value.code == "too_large"


def test_chunks_no_uri_names_stay_in_the_portrait_and_the_file():
    chunks = [("chara-ext-asset_:0", base64.b64encode(SPRITE)), ("chara-ext-asset_:5", base64.b64encode(b"v2"))]
    data = risu_png(v3(ASSETS[:2]), chunks)  # :5 is named by nothing (RisuAI's V2 export names it in extensions)
    _adapter, decoded, media = read(data, "risa.png")
    portrait = png.read_png(media(decoded.pieces[0].body.portrait))
    assert [chunk.keyword for chunk in portrait.chunks if chunk.keyword] == ["chara-ext-asset_:5"]
    crossing = cross(data, "risa.png", edit=edit_body(description="changed"))
    assert keywords(crossing.data) == ["chara-ext-asset_:5", "chara-ext-asset_:0", "chara", "ccv3"]
    assert crossing.losses == []


def test_a_new_stored_asset_gets_a_chunk_under_a_free_key():
    _adapter, decoded, media = read(risu_png(), "risa.png")
    piece = decoded.pieces[0]
    extra = Blob(b"new sprite", "png", "image/png")
    added = piece.assets[1].model_copy(update={"name": "new", "asset": extra.ref()})
    piece = piece.model_copy(update={"assets": [piece.assets[0], added, *piece.assets[1:]]})
    crossing = convert_piece(
        piece, "sillytavern.card.png", lambda ref: extra.data if ref == extra.ref() else media(ref)
    )
    assert crossing.losses == []
    entries = ccv3_of(crossing.data)["data"]["assets"]
    assert [(entry["name"], entry["uri"]) for entry in entries] == [
        ("main", "ccdefault:"),
        ("new", "__asset:2"),  # 0 and 1 are the escrowed chunks', written back under their keys
        ("happy", "__asset:0"),
        ("bgm", "__asset:1"),
    ]
    assert keywords(crossing.data) == [
        "chara-ext-asset_:2",
        "chara-ext-asset_:0",
        "chara-ext-asset_:1",
        "chara",
        "ccv3",
    ]
    _adapter, back, back_media = read(crossing.data, "risa.png")
    assert back_media(back.pieces[0].assets[1].asset) == b"new sprite"


def test_a_kept_chunk_whose_key_the_new_image_holds_is_renumbered():
    _adapter, decoded, media = read(risu_png(), "risa.png")
    other = png.replace_text(png.read_png(IMAGE), set(), [("chara-ext-asset_:0", b"b3RoZXI=")])
    portrait = Blob(other, "png", "image/png")
    piece = decoded.pieces[0]
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"portrait": portrait.ref()})})
    crossing = convert_piece(piece, "sillytavern.card.png", lambda ref: other if ref == portrait.ref() else media(ref))
    assert [entry["uri"] for entry in ccv3_of(crossing.data)["data"]["assets"]] == [
        "ccdefault:",
        "__asset:2",  # 0 is the image's; 1 stays the other escrowed chunk's
        "__asset:1",
    ]
    _adapter, back, back_media = read(crossing.data, "risa.png")
    assert [back_media(link.asset) for link in back.pieces[0].assets[1:]] == [SPRITE, BGM]


def test_a_card_without_an_asset_list_never_looks_for_asset_chunks(monkeypatch):
    def refuse(*_args):
        raise AssertionError("the chunks were walked for assets")

    monkeypatch.setattr(png, "asset_chunks", refuse)
    card = v3(ASSETS)
    del card["data"]["assets"]
    _adapter, decoded, _media = read(risu_png(card), "risa.png")
    assert decoded.pieces[0].assets == []


@pytest.mark.parametrize("data", [None, "not an object", []])
def test_a_card_whose_data_is_no_object_reads_its_assets_at_the_top_level(data):
    card = {**v3(ASSETS)["data"], "spec": "chara_card_v3", "data": data}
    _adapter, decoded, media = read(risu_png(card), "risa.png")
    assert [link.name for link in decoded.pieces[0].assets] == ["main", "happy", "bgm"]
    assert media(decoded.pieces[0].assets[2].asset) == BGM
