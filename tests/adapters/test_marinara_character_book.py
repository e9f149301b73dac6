"""A card's book crossing into a Marinara character: Marinara keeps the book as written but uses
it only through "Import embedded lorebook" (importSTLorebook, since Marinara took SillyTavern's
four logics), which reads the book's scan depth, token budget and recursion, reads each entry's
settings from the entry's top level (a card book keeps most in `extensions`), gives an entry
without a logic `and` (any secondary key) and without preventRecursion true, and runs `/.../`
keys as regexes with its own flags. The export names exactly what that loses, and nothing for a
character that came from Marinara."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st
from marinara_support import character_export, no_media, read

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece

CODES = ("marinara.character.book.scan_depth.none", "marinara.character.book.entry.dropped")
KEY_CODE = "marinara.character.book.key.flags"


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


def test_what_marinara_drops_is_named_and_nothing_else() -> None:
    data = card(
        {"scan_depth": 5, "token_budget": 4096, "recursive_scanning": True},
        [
            entry(
                0,
                secondary=["a", "b"],
                keys=["/dra(g|k)on/"],  # case-sensitive as written; Marinara runs it with `gi`
                scan_depth=3,
                probability=50,
                useProbability=True,
                group="pets",
                sticky=2,
                match_whole_words=True,
                selectiveLogic=3,
                exclude_recursion=True,
                delay_until_recursion=True,
                prevent_recursion=True,
            ),
            # "and" is any key, as AND_ANY is; a probability off is no roll; `/.../i` is Marinara's `gi`
            entry(1, secondary=["x", "y"], keys=["/wyrm/i"], selectiveLogic=0, probability=10, useProbability=False),
        ],
    )
    _scan, dropped = CODES
    assert book_losses(data) == {
        *(
            (dropped, f"/body/book/entries/0/{field}")
            for field in (
                "scan_depth",
                "probability",
                "group",
                "sticky",
                "match_whole_words",
                "selective_logic",
                "exclude_recursion",
                "delay_until_recursion",
            )
        ),
        (KEY_CODE, "/body/book/entries/0/keys"),
        (dropped, "/body/book/entries/1/prevent_recursion"),  # recursion on: Marinara's import makes it true
    }


def test_a_book_at_marinaras_values_costs_nothing() -> None:
    data = card(
        {"scan_depth": 2, "token_budget": 2048, "recursive_scanning": False},
        [entry(0, secondary=["a", "b"], selectiveLogic=0, probability=100, sticky=0)],
    )
    assert book_losses(data) == set()


@pytest.mark.parametrize(
    ("logic", "secondary", "named"),
    [(0, 2, False), (3, 1, False), (3, 2, True), (1, 1, True), (2, 1, True), (2, 0, False)],
)
def test_a_logic_is_named_when_any_one_key_would_read_otherwise(logic, secondary, named) -> None:
    keys = ["a", "b"][:secondary]
    losses = book_losses(card({}, [entry(0, secondary=keys, selectiveLogic=logic)]))
    assert ((CODES[1], "/body/book/entries/0/selective_logic") in losses) is named


@pytest.mark.parametrize(
    ("key", "case_sensitive", "named"),
    [
        ("/x/i", False, False),
        ("/x/", True, False),
        ("/x/", False, True),
        ("/x/i", True, True),
        ("/x/gi", False, False),
        ("/x/is", False, True),
        ("x", False, False),
    ],
)
def test_a_regex_key_is_named_when_marinaras_flags_run_it_otherwise(key, case_sensitive, named) -> None:
    book_entry = entry(0, keys=[key]) | {"case_sensitive": case_sensitive}
    losses = book_losses(card({}, [book_entry]))
    assert ((KEY_CODE, "/body/book/entries/0/keys") in losses) is named


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
def test_a_setting_is_named_exactly_when_marinara_would_read_another(scan, budget, recursive, entry_scan) -> None:
    given_settings = {"scan_depth": scan, "token_budget": budget, "recursive_scanning": recursive}
    extensions = {"prevent_recursion": True} | ({} if entry_scan is None else {"scan_depth": entry_scan})
    named = {pointer for _code, pointer in book_losses(card(given_settings, [entry(0, **extensions)]))}
    expected = {"/body/book/settings/scan_depth"} if scan == 0 else set()  # every message to Marinara
    if entry_scan is not None:
        expected.add("/body/book/entries/0/scan_depth")
    assert named == expected


@pytest.mark.parametrize(
    ("top", "kept", "key", "named"),
    [
        # SillyTavern's cards keep case_sensitive in extensions, which Marinara's import never reads
        (None, True, "Dragon", {"case_sensitive"}),
        (None, True, "/Dragon/", {"keys"}),  # run with `gi`: any case
        (None, True, "/dragon/i", set()),  # `gi` is what it asks for
        (True, True, "Dragon", set()),
        (True, True, "/dragon/i", {"keys"}),  # run with `g`
        (None, False, "/dragon/", {"keys"}),
        (None, None, "dragon", set()),
    ],
)
def test_case_sensitivity_is_read_from_the_entrys_top_level_as_marinara_does(top, kept, key, named) -> None:
    extensions = {} if kept is None else {"case_sensitive": kept}
    book_entry = entry(0, keys=[key], **extensions)
    if top is not None:
        book_entry["case_sensitive"] = top
    losses = book_losses(card({}, [book_entry]))
    assert {pointer.rsplit("/", 1)[-1] for _code, pointer in losses} == named


def test_settings_marinaras_import_never_reads_are_named() -> None:
    extensions = {
        "match_persona_description": True,
        "match_scenario": True,
        "triggers": ["normal"],
        "ignore_budget": True,
        "character_filter": {"isExclude": False, "names": ["Lyra"], "tags": []},
        "automation_id": "qr-1",
    }
    losses = book_losses(card({}, [entry(0, **extensions)]))
    named = {pointer.rsplit("/", 1)[-1] for _code, pointer in losses}
    assert named == {
        "match_persona_description",
        "match_scenario",
        "triggers",
        "ignore_budget",
        "character_filter",
        "automation_id",
    }


def test_secondary_regex_keys_of_an_entry_that_does_not_filter_are_not_named() -> None:
    book_entry = entry(0, secondary=["/x/"]) | {"selective": False}
    assert book_losses(card({}, [book_entry])) == set()


def test_only_what_an_entry_does_is_named_nothing_for_a_disabled_one_nor_a_constant_ones_keys() -> None:
    settings_ = {"case_sensitive": True, "match_whole_words": True, "scan_depth": 3, "selectiveLogic": 3}
    keyed = entry(0, secondary=["a", "b"], keys=["dragon", "/x/"], **settings_)
    whole_regex = entry(1, keys=["/wyrm/i"], match_whole_words=True)  # whole words mean nothing to a regex key
    off = entry(2, keys=["/x/"], **settings_) | {"enabled": False}
    constant = entry(3, secondary=["a", "b"], keys=["/x/"], sticky=2, match_scenario=True, **settings_) | {
        "constant": True
    }
    named = {pointer for _code, pointer in book_losses(card({}, [keyed, whole_regex, off, constant]))}
    assert named == {
        *(
            f"/body/book/entries/0/{f}"
            for f in ("case_sensitive", "match_whole_words", "scan_depth", "selective_logic")
        ),
        "/body/book/entries/0/keys",
        "/body/book/entries/3/sticky",  # a constant entry still stays on as long
    }
