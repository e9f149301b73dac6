"""Decorators SillyTavern ignores, in the book a SillyTavern card embeds: a V3 card (or a RisuAI
book) whose entries start with `@@depth` lines names them crossing to SillyTavern's card, as the
world writer does (one detection, card_book.decorators_ignored)."""

from __future__ import annotations

import json

from cards_support import read

from bunzai.convert import convert_piece

CONTENT = "@@depth 0\n@@role assistant\nDragons are big."


def v3_card(*contents: str) -> bytes:
    entries = [{"keys": ["dragon"], "content": text, "enabled": True, "insertion_order": 1} for text in contents]
    data = {"name": "C", "character_book": {"name": "B", "entries": entries, "extensions": {}}}
    return json.dumps({"spec": "chara_card_v3", "spec_version": "3.0", "data": data}).encode()


def test_a_v3_card_s_decorators_are_named_crossing_to_a_sillytavern_json_card():
    _adapter, decoded, media = read(v3_card(CONTENT, "@@activate\nAlways.", "Plain."), "c.json")
    crossing = convert_piece(decoded.pieces[0], "sillytavern.card.json", media)
    decorated = [loss for loss in crossing.losses if loss.code == "world.entry.decorators_ignored"]
    assert [(loss.pointer, loss.action) for loss in decorated] == [("/body/book/entries/0/content", "dropped")]
    assert "@@depth 0, @@role assistant" in decorated[0].why
    written = json.loads(crossing.data)["data"]["character_book"]["entries"][0]
    assert written["content"] == CONTENT  # the text crosses as it is


def test_a_sillytavern_json_card_written_back_names_nothing():
    _adapter, decoded, media = read(v3_card(CONTENT), "c.json")
    first = convert_piece(decoded.pieces[0], "sillytavern.card.json", media)
    _adapter, again, media = read(first.data, "c.json")
    assert again.pieces[0].original.format == "sillytavern.card.json"
    crossing = convert_piece(again.pieces[0], "sillytavern.card.json", media)
    assert "world.entry.decorators_ignored" not in [loss.code for loss in crossing.losses]


def test_the_world_writer_names_them_with_the_same_detection():
    _adapter, decoded, media = read(v3_card(CONTENT), "c.json")
    book = decoded.pieces[1]
    crossing = convert_piece(book, "sillytavern.world", media)
    [loss] = [loss for loss in crossing.losses if loss.code == "world.entry.decorators_ignored"]
    assert loss.pointer == "/body/entries/0/content" and "@@depth 0" in loss.why


def test_a_v3_card_s_decorators_are_named_crossing_to_a_sillytavern_png_card():
    _adapter, decoded, media = read(v3_card(CONTENT), "c.json")
    crossing = convert_piece(decoded.pieces[0], "sillytavern.card.png", media)
    decorated = [loss.pointer for loss in crossing.losses if loss.code == "world.entry.decorators_ignored"]
    assert decorated == ["/body/book/entries/0/content"]
