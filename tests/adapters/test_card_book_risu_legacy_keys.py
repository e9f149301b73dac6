"""A card book entry's `risu_activationPercent` and `risu_loreCache` (RisuAI's card export writes
them from the entry's activationPercent and loreCache) stay app data: RisuAI never reads loreCache,
and a chance in risu_activationPercent (cards RisuAI exported before June 2024; since, it writes null)
is one SillyTavern ignores, while the card's probability is the one both apps read (see
docs/formats/risu.charx.md)."""

from __future__ import annotations

import json

from cards_support import read

from bunzai.convert import convert_piece

LEGACY = {"risu_activationPercent": 40, "risu_loreCache": {"key": "k", "data": ["x"]}, "risu_case_sensitive": False}


def card(extensions: dict) -> bytes:
    entry = {"id": 0, "keys": ["dragon"], "content": "Dragons.", "enabled": True, "insertion_order": 100}
    data = {"name": "Ana", "character_book": {"entries": [entry | {"extensions": extensions}]}}
    return json.dumps({"spec": "chara_card_v3", "spec_version": "3.0", "data": data}).encode()


def test_risuai_legacy_entry_keys_stay_app_data_and_the_chance_is_sillytaverns():
    _adapter, decoded, media = read(card(LEGACY), "ana.json")
    [entry] = decoded.pieces[0].body.book.entries
    assert (entry.probability, entry.use_probability) == (100, True)  # SillyTavern's reading: no chance set
    assert entry.extensions == LEGACY
    for target in ("sillytavern.card.json", "risu.charx", "ccv2.json"):
        crossing = convert_piece(decoded.pieces[0], target, media)
        _adapter, back, _media = read(crossing.data, crossing.file_name, target)
        assert back.pieces[0].body.book.entries[0].extensions == LEGACY, target
