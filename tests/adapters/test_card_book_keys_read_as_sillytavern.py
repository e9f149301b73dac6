"""A card book's `/pattern/flags` keys read as SillyTavern reads them when it imports the card.

SillyTavern turns a card's book into a world (convertCharacterBook) and scans its keys with the
same parseRegexFromString as a world's: flags from gimsuy, an inner `/` escaped, a pattern
JavaScript compiles. So the card-book reader and the world reader share one test (st_regex).
"""

from __future__ import annotations

import json

import pytest
from cards_support import read
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.adapters.common.card_book import read_key
from bunzai.adapters.sillytavern.world_keys import decode_key

KEY_TEXT = st.text("ab/\\.()[]dgimsuvy {}", max_size=10)


@pytest.mark.parametrize("native", ["/(bad/i", "/y/gg", "/a/d", "/a/v", "/*/", "/a/b/", "//"])
def test_keys_sillytavern_does_not_compile_read_as_plain_text(native):
    assert read_key(native) == {"text": native, "regex": False, "flags": ""}


@pytest.mark.parametrize(
    ("native", "key"),
    [
        ("/dragon/i", {"text": "dragon", "regex": True, "flags": "i"}),
        (" /dragon/i ", {"text": "dragon", "regex": True, "flags": "i"}),  # the scan trims a key
        ("/a\\/b/", {"text": "a/b", "regex": True, "flags": ""}),
    ],
)
def test_keys_sillytavern_compiles_read_as_regexes(native, key):
    assert read_key(native) == key


@settings(max_examples=400, deadline=None)
@given(st.one_of(KEY_TEXT, KEY_TEXT.map(lambda text: "/" + text)))
def test_a_card_book_key_reads_as_the_same_key_in_a_world(text):
    assert read_key(text) == decode_key(text)


def test_a_card_s_book_reads_its_keys_as_sillytavern_does():
    card = {
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {
            "name": "Ada",
            "description": "",
            "character_book": {
                "entries": [
                    {
                        "keys": ["/(bad/i", " /dragon/i", "/a/d"],
                        "content": "c",
                        "enabled": True,
                        "insertion_order": 1,
                        "extensions": {},
                    }
                ]
            },
        },
    }
    _adapter, decoded, _media = read(json.dumps(card).encode(), "ada.json")
    keys = [key.model_dump() for key in decoded.pieces[0].body.book.entries[0].keys]
    assert keys == [
        {"text": "/(bad/i", "regex": False, "flags": ""},
        {"text": "dragon", "regex": True, "flags": "i"},
        {"text": "/a/d", "regex": False, "flags": ""},
    ]
