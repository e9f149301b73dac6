"""Legacy Backyard PNGs written: corpus files back byte for byte, edits and crossings in the V4 shape
Backyard's own library (ahoylabs/byaf) writes and accepts, every dropped field named."""

from __future__ import annotations

import base64
import json
from datetime import datetime

import pytest

from bunzai.adapters.backyard.legacy_png import user_comment
from bunzai.adapters.common import png
from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.model.character import Character
from testkit import corpus_path

LEGACY = ("legacy-faraday-v1.png", "legacy-backyard-v4.png")
STR, NUM, BOOL, LIST = str, (int, float), bool, list
# BackyardCharacterExportV4 in ahoylabs/byaf src/character-image/types/character-exports.ts (zod).
V4_KEYS = {
    "Chat": LIST,
    "id": STR,
    "updatedAt": "date",
    "createdAt": "date",
    "aiDisplayName": STR,
    "customDialogue": STR,
    "basePrompt": STR,
    "model": STR,
    "scenario": STR,
    "temperature": NUM,
    "repeatPenalty": NUM,
    "repeatLastN": NUM,
    "isNSFW": BOOL,
    "aiName": STR,
    "aiPersona": STR,
    "topK": NUM,
    "topP": NUM,
    "firstMessage": (str, type(None)),
    "grammar": (str, type(None)),
    "loreItems": LIST,
    "minP": NUM,
    "minPEnabled": BOOL,
    "promptTemplate": (str, type(None)),
    "canDeleteCustomDialogue": BOOL,
}
TEMPLATES = (None, "general", "ChatML", "Llama3", "Gemma2", "CommandR", "MistralInstruct")


def media_of(decoded):
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    return lambda ref: blobs[ref.sha256]


def backyard_document(data: bytes) -> dict:
    """What parseCharacterPng sees: the EXIF UserComment, base64-decoded when it is strict base64."""
    exif = next(data[c.data_start : c.data_end] for c in png.read_png(data).chunks if c.type == b"eXIf")
    comment = user_comment(exif)
    assert comment.startswith(b"ASCII\x00\x00\x00")
    text = comment[8:]
    return json.loads(base64.b64decode(text, validate=True) if not text.startswith(b"{") else text)


def v4_problems(document: dict) -> list[str]:
    if document.get("version") != 4 or not isinstance(document.get("character"), dict):
        return ["not {character, version: 4}"]
    character, problems = document["character"], []
    for key, kind in V4_KEYS.items():
        value = character.get(key, KeyError)
        if kind == "date":
            try:
                datetime.fromisoformat(str(value).replace("Z", "+00:00"))
            except ValueError:
                problems.append(f"{key}: not a date")
        elif value is KeyError or not isinstance(value, kind) or (kind is NUM and isinstance(value, bool)):
            problems.append(f"{key}: {value!r}")
    if character.get("promptTemplate") not in TEMPLATES:
        problems.append("promptTemplate")
    for item in character.get("loreItems", []):
        if not all(isinstance(item.get(k), str) for k in ("id", "key", "value")):
            problems.append(f"lore item {item!r}")
    return problems


@pytest.mark.parametrize("name", LEGACY)
def test_a_corpus_legacy_png_writes_back_byte_for_byte(name):
    data = corpus_path("backyard-byaf", name).read_bytes()
    _adapter, decoded = read_bytes(data, name)
    crossing = convert_piece(decoded.pieces[0], "backyard.png", media_of(decoded))
    assert crossing.data == data and crossing.losses == []


@pytest.mark.parametrize("name", LEGACY)
def test_an_edit_is_written_into_the_exif_and_the_rest_of_the_document_kept(name):
    data = corpus_path("backyard-byaf", name).read_bytes()
    _adapter, decoded = read_bytes(data, name)
    piece = decoded.pieces[0]
    edited = piece.model_copy(
        update={
            "name": "Renamed",
            "body": piece.body.model_copy(update={"scenario": "A new scene.", "first_message": "Hello."}),
        }
    )
    crossing = convert_piece(edited, "backyard.png", media_of(decoded))
    document = backyard_document(crossing.data)
    before = decoded.pieces[0].original.document
    assert document["version"] == before["version"]
    assert document["character"] | {"aiDisplayName": "x", "scenario": "x", "firstMessage": "x"} == before[
        "character"
    ] | {"aiDisplayName": "x", "scenario": "x", "firstMessage": "x"}
    back = read_bytes(crossing.data, "again.png")
    assert back[0].format_id == "backyard.png"
    again = back[1].pieces[0]
    assert (again.name, again.body.scenario, again.body.first_message) == ("Renamed", "A new scene.", "Hello.")
    assert {loss.code for loss in crossing.losses} == {"backyard.png.portrait"}
    if before["version"] == 4:
        assert v4_problems(document) == []
    image = [c.type for c in png.read_png(crossing.data).chunks]
    assert image.count(b"eXIf") == 1 and image.index(b"eXIf") < image.index(b"IDAT")


def test_a_new_character_is_written_in_the_v4_shape_backyard_accepts():
    piece = Character.model_validate(
        {
            "id": "mira",
            "name": "Mira",
            "body": {
                "nickname": "Mi",
                "description": "A ferrywoman.",
                "first_message": "",
                "rating": "nsfw",
                "tags": ["boats"],
                "book": {
                    "entries": [
                        {"keys": [{"text": "river"}, {"text": "ford"}], "content": "Wide.", "uid": 1},
                        {"keys": [{"text": "off"}], "content": "x", "enabled": False, "uid": 2},
                    ]
                },
            },
        }
    )
    crossing = convert_piece(piece, "backyard.png", lambda ref: b"")
    document = backyard_document(crossing.data)
    assert v4_problems(document) == []
    character = document["character"]
    assert (character["aiDisplayName"], character["aiName"], character["isNSFW"]) == ("Mira", "Mi", True)
    assert character["firstMessage"] is None and [i["key"] for i in character["loreItems"]] == ["river"]
    codes = {(loss.pointer, loss.code) for loss in crossing.losses}
    assert {
        ("/body/tags", "backyard.field.not_carried"),
        ("/body/book/entries/0/keys", "backyard.lore.one_key"),
        ("/body/book/entries/1", "backyard.lore.disabled"),
    } <= codes
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def test_a_sillytavern_card_crosses_into_a_legacy_png_naming_each_loss():
    data = corpus_path("sillytavern", "characters/default_Seraphina.png").read_bytes()
    _adapter, decoded = read_bytes(data, "Seraphina.png")
    piece = decoded.pieces[0]
    crossing = convert_piece(piece, "backyard.png", media_of(decoded))
    assert v4_problems(backyard_document(crossing.data)) == []
    assert not [loss for loss in crossing.losses if loss.code in ("crossing.not_carried", "backyard.not_carried")]
    again = read_bytes(crossing.data, "seraphina.png")[1].pieces[0]
    assert (again.name, again.body.description) == (piece.name, piece.body.description)
    assert png.read_png(crossing.data).text_chunks() == []  # no SillyTavern card chunk rides along
    back = convert_piece(again, "sillytavern.card.png", lambda ref: crossing.data)
    assert read_bytes(back.data, "back.png")[1].pieces[0].body.first_message == piece.body.first_message


def test_a_portrait_that_is_not_a_png_is_replaced_with_a_named_loss():
    piece = Character.model_validate({"id": "j", "name": "J", "body": {"portrait": {"sha256": "0" * 64, "ext": "jpg"}}})
    crossing = convert_piece(piece, "backyard.png", lambda ref: b"\xff\xd8\xff\xe0 jpeg \xff\xd9")
    assert crossing.data.startswith(png.PNG_SIGNATURE)
    assert "backyard.png.portrait_type" in {loss.code for loss in crossing.losses}


def test_a_portrait_carrying_a_card_chunk_is_written_without_it():
    import base64 as b64

    card = png.replace_text(
        png.read_png(png.default_portrait()),
        set(),
        [("chara", b64.b64encode(b'{"name": "Other"}')), ("Software", b"Paint")],
    )
    piece = Character.model_validate({"id": "j", "name": "J", "body": {"portrait": {"sha256": "0" * 64, "ext": "png"}}})
    crossing = convert_piece(piece, "backyard.png", lambda ref: card)
    assert [t.keyword for t in png.read_png(crossing.data).text_chunks()] == ["Software"]
    assert read_bytes(crossing.data, "j.png")[0].format_id == "backyard.png"
