"""A card's book crossing into a Marinara character: Marinara keeps the book as written but uses
it only through "Import embedded lorebook" (importSTLorebook), which fixes the book's scan depth
(2), token budget (2048) and recursion (off), reads each entry's settings from the entry's top
level (a card book keeps them in `extensions`) and matches keys as plain text. The export names
exactly those, and nothing for a character that came from Marinara."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st
from marinara_support import character_export, no_media, read

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece

CODES = ("marinara.character.book.settings.fixed", "marinara.character.book.entry.dropped")
KEY_CODE = "marinara.character.book.key.plain"


def card(book_settings: dict, entries: list[dict]) -> bytes:
    book = {"name": "Lore", "entries": entries, "extensions": {}, **book_settings}
    data = {"name": "Lyra", "description": "", "first_mes": "Hi", "extensions": {}, "character_book": book}
    return json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}).encode()


def entry(uid: int, secondary: list[str] = (), keys: list[str] = ("dragon",), **extensions) -> dict:
    return {
        "id": uid,
        "keys": list(keys),
        "secondary_keys": list(secondary),
        "selective": True,
        "content": "A dragon.",
        "enabled": True,
        "insertion_order": 100,
        "extensions": extensions,
    }


def book_losses(data: bytes) -> set[tuple[str, str]]:
    _adapter, decoded = read_bytes(data, "lyra.json", "ccv2.json")
    crossing = convert_piece(decoded.pieces[0], "marinara.character", no_media)
    return {(loss.code, loss.pointer) for loss in crossing.losses if loss.code in (*CODES, KEY_CODE)}


def test_what_marinara_fixes_or_drops_is_named_and_nothing_else() -> None:
    data = card(
        {"scan_depth": 5, "token_budget": 2048, "recursive_scanning": True},
        [
            entry(
                0,
                secondary=["a", "b"],
                keys=["/dra(g|k)on/i"],
                scan_depth=3,
                probability=50,
                useProbability=True,
                group="pets",
                sticky=2,
                match_whole_words=True,
                selectiveLogic=0,
            ),
            # Marinara's "all secondary keys" reads one key as any/all does; a probability off is no roll
            entry(1, secondary=["x"], selectiveLogic=0, probability=10, useProbability=False, depth=2),
        ],
    )
    fixed, dropped = CODES
    assert book_losses(data) == {
        (fixed, "/body/book/settings/scan_depth"),
        (fixed, "/body/book/settings/recursive_scanning"),
        *(
            (dropped, f"/body/book/entries/0/{field}")
            for field in ("scan_depth", "probability", "group", "sticky", "match_whole_words", "selective_logic")
        ),
        (KEY_CODE, "/body/book/entries/0/keys"),
    }


def test_a_book_at_marinaras_values_costs_nothing() -> None:
    data = card(
        {"scan_depth": 2, "token_budget": 2048, "recursive_scanning": False},
        [entry(0, secondary=["a", "b"], selectiveLogic=3, probability=100, sticky=0)],
    )
    assert book_losses(data) == set()


def test_a_character_from_marinara_goes_back_without_these_losses() -> None:
    _adapter, decoded = read(character_export())
    piece = decoded.pieces[0]
    piece.body.book.settings.scan_depth = 6  # the card kept it; Marinara's lorebook never had it
    crossing = convert_piece(piece, "marinara.character", no_media)
    assert [loss for loss in crossing.losses if loss.code in (*CODES, KEY_CODE)] == []


@settings(max_examples=40, deadline=None)
@given(
    scan=st.none() | st.integers(0, 9),
    budget=st.none() | st.sampled_from([512, 2048, 4096]),
    recursive=st.none() | st.booleans(),
    entry_scan=st.none() | st.integers(1, 9),
)
def test_a_setting_is_named_exactly_when_marinara_would_use_another(scan, budget, recursive, entry_scan) -> None:
    given_settings = {"scan_depth": scan, "token_budget": budget, "recursive_scanning": recursive}
    extensions = {} if entry_scan is None else {"scan_depth": entry_scan}
    named = {pointer for _code, pointer in book_losses(card(given_settings, [entry(0, **extensions)]))}
    marinara = {"scan_depth": 2, "token_budget": 2048, "recursive_scanning": False}
    expected = {f"/body/book/settings/{k}" for k, v in given_settings.items() if v is not None and v != marinara[k]}
    if entry_scan is not None:
        expected.add("/body/book/entries/0/scan_depth")
    assert named == expected
