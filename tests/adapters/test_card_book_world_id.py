"""A card's embedded book and the world it is bound to are one world, with one id."""

from __future__ import annotations

import json

from bunzai.adapters.inspect import read_bytes


def card(world: str, book_name: str) -> bytes:
    data = {
        "name": "Mira",
        "description": "",
        "personality": "",
        "scenario": "",
        "first_mes": "",
        "mes_example": "",
        "creator_notes": "",
        "system_prompt": "",
        "post_history_instructions": "",
        "alternate_greetings": [],
        "tags": [],
        "creator": "",
        "character_version": "",
        "extensions": {"world": world},
        "character_book": {"name": book_name, "entries": [], "extensions": {}},
    }
    return json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}).encode()


def test_a_bound_book_takes_the_world_files_id():
    _, world = read_bytes(b'{"entries": {}}', "Eldoria Realm.json", "sillytavern.world")
    _, decoded = read_bytes(card("Eldoria Realm", "Old name"), "mira.json", None)
    character, book = decoded.pieces
    assert book.id == world.pieces[0].id == "eldoria-realm"
    assert character.body.links.lorebooks == ["eldoria-realm"]


def test_an_unbound_book_takes_its_own_name():
    _, decoded = read_bytes(card("", "Mira's Notes"), "mira.json", None)
    assert decoded.pieces[1].id == "mira-s-notes"
    assert decoded.pieces[0].body.links.lorebooks == ["mira-s-notes"]
