"""SillyTavern world info: the corpus worlds read and round-trip, every entry field maps, bad input is refused."""

from __future__ import annotations

import json

import pytest

from bunzai.adapters.inspect import inspect_bytes, read_bytes
from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from bunzai.model.lorebook import Lorebook, LorebookBody, LoreEntry
from testkit import corpus_path

WORLD = "sillytavern.world"
CORPUS_WORLDS = ("Eldoria.json", "Eldoria.pre-2024-09.json")


def no_media(ref):
    raise AssertionError("a world has no media")


def read_world(document: dict, name: str = "Test World.json") -> Lorebook:
    data = json.dumps(document).encode()
    return get_adapter(WORLD).read(data, name, json.loads(data)).pieces[0]


def round_trip(piece) -> tuple[dict, list]:
    crossing = convert_piece(piece, WORLD, no_media)
    return json.loads(crossing.data), crossing.losses


@pytest.mark.parametrize("file_name", CORPUS_WORLDS)
def test_corpus_world_is_sniffed_and_read(file_name):
    data = corpus_path("sillytavern", "worlds", file_name).read_bytes()
    found = inspect_bytes(data, file_name)
    assert found.adapter.format_id == WORLD
    piece = found.adapter.read(data, file_name, found.parsed).pieces[0]
    assert piece.name == file_name.removesuffix(".json")
    assert [entry.uid for entry in piece.body.entries] == [0, 1, 2, 3]
    assert piece.body.entries[0].keys[0].text == "eldoria"


@pytest.mark.parametrize("file_name", CORPUS_WORLDS)
def test_corpus_world_round_trip_is_json_equal(file_name):
    data = corpus_path("sillytavern", "worlds", file_name).read_bytes()
    _, decoded = read_bytes(data, file_name)
    written, losses = round_trip(decoded.pieces[0])
    assert written == json.loads(data)
    assert {loss.code for loss in losses} <= {"world.name.file_stem"}


def test_sparse_old_entries_read_with_sillytavern_defaults():
    data = corpus_path("sillytavern", "worlds", "Eldoria.pre-2024-09.json").read_bytes()
    entry = read_bytes(data, "Eldoria.json")[1].pieces[0].body.entries[0]
    # no probability keys: the scan skips the roll (`!undefined`), so the entry always fires
    assert (entry.probability, entry.use_probability, entry.depth, entry.role) == (0, False, 4, "system")
    assert (entry.sticky, entry.cooldown, entry.delay, entry.scan_depth) == (None, None, None, None)
    assert entry.group.weight == 100 and entry.selective_logic == "and_any" and entry.display_index is None


def test_null_role_and_zero_timers_are_kept_as_written():
    data = corpus_path("sillytavern", "worlds", "Eldoria.json").read_bytes()
    piece = read_bytes(data, "Eldoria.json")[1].pieces[0]
    assert piece.body.entries[0].sticky == 0 and piece.body.entries[0].role == "system"
    piece.body.entries[0].content = "edited"
    written, _ = round_trip(piece)
    entry = written["entries"]["0"]
    assert entry["content"] == "edited" and entry["role"] is None and entry["sticky"] == 0


@pytest.mark.parametrize(
    "number, name",
    list(enumerate(["before_char", "after_char", "an_top", "an_bottom", "at_depth", "em_top", "em_bottom", "outlet"])),
)
def test_every_position_reads_and_writes_back(number, name):
    piece = read_world({"entries": {"5": {"uid": 5, "key": ["k"], "position": number, "outletName": "o"}}})
    assert piece.body.entries[0].position == name
    fresh = piece.model_copy(update={"original": None})
    written, losses = round_trip(fresh)
    assert written["entries"]["5"]["position"] == number and not [x for x in losses if "position" in x.pointer]


@pytest.mark.parametrize("number, name", list(enumerate(["and_any", "not_all", "not_any", "and_all"])))
def test_selective_logic_maps_both_ways(number, name):
    piece = read_world({"entries": {"0": {"uid": 0, "selectiveLogic": number}}})
    assert piece.body.entries[0].selective_logic == name
    written, _ = round_trip(piece.model_copy(update={"original": None}))
    assert written["entries"]["0"]["selectiveLogic"] == number


def test_regex_keys_read_as_regex_and_write_back_exactly():
    keys = ["/dragon(s)?/i", "/a\\/b/", "/a/b/", "plain", "/\\x01{{user}}:[^\\x01]*?hi/"]
    piece = read_world({"entries": {"0": {"uid": 0, "key": keys}}})
    read = piece.body.entries[0].keys
    assert [(k.text, k.regex, k.flags) for k in read] == [
        ("dragon(s)?", True, "i"),
        ("a/b", True, ""),  # the pattern as JavaScript reads it
        ("/a/b/", False, ""),
        ("plain", False, ""),
        ("\\x01{{user}}:[^\\x01]*?hi", True, ""),
    ]
    written, _ = round_trip(piece.model_copy(update={"original": None}))
    assert written["entries"]["0"]["key"] == keys


def test_a_canonical_regex_with_a_bare_slash_is_escaped_for_sillytavern():
    book = Lorebook(
        id="b",
        name="b",
        body=LorebookBody(entries=[LoreEntry(uid=1, keys=[{"text": "a/b", "regex": True, "flags": "i"}])]),
    )
    written, losses = round_trip(book)
    assert written["entries"]["1"]["key"] == ["/a\\/b/i"]
    assert [loss.code for loss in losses if "keys" in loss.pointer] == []  # it reads back as a/b


def test_newer_entry_fields_map():
    entry = {
        "uid": 3,
        "key": ["x"],
        "delayUntilRecursion": 2,
        "characterFilter": {"isExclude": True, "names": ["Sera"], "tags": []},
        "triggers": ["normal", "swipe"],
        "ignoreBudget": True,
        "matchScenario": True,
        "outletName": "side",
        "group": "a, b",
        "groupOverride": True,
        "useGroupScoring": True,
        "role": 2,
        "sticky": 3,
        "automationId": "qr1",
        "disable": True,
    }
    read = read_world({"entries": {"3": entry}}).body.entries[0]
    assert read.delay_until_recursion == 2 and read.character_filter.exclude and read.character_filter.names == ["Sera"]
    assert read.triggers == ["normal", "swipe"] and read.ignore_budget and read.match_scenario
    assert read.outlet == "side" and read.group.names == ["a", "b"] and read.group.override
    assert read.group.use_group_scoring is True and read.role == "assistant" and read.sticky == 3
    assert read.automation_id == "qr1" and read.enabled is False


def test_delay_until_recursion_keeps_bool_and_int():
    piece = read_world(
        {"entries": {"0": {"uid": 0, "delayUntilRecursion": True}, "1": {"uid": 1, "delayUntilRecursion": 0}}}
    )
    assert piece.body.entries[0].delay_until_recursion is True
    written, _ = round_trip(piece.model_copy(update={"original": None}))
    assert written["entries"]["0"]["delayUntilRecursion"] is True
    assert written["entries"]["1"]["delayUntilRecursion"] == 0


def test_display_index_and_order_are_separate():
    piece = read_world({"entries": {"0": {"uid": 0, "order": 10, "displayIndex": 2}}})
    assert (piece.body.entries[0].order, piece.body.entries[0].display_index) == (10, 2)


def test_unknown_root_and_entry_keys_survive_a_round_trip():
    document = {
        "entries": {"7": {"uid": 7, "key": ["k"], "futureKey": {"x": [1]}}},
        "originalData": {"name": "Book", "entries": []},
        "bunzaiTest": 1,
    }
    piece = read_world(document)
    piece.body.entries[0].content = "new"
    written, _ = round_trip(piece)
    assert written["originalData"] == document["originalData"] and written["bunzaiTest"] == 1
    assert written["entries"]["7"]["futureKey"] == {"x": [1]} and written["entries"]["7"]["content"] == "new"


def test_non_integer_uids_are_renumbered_with_a_loss():
    book = Lorebook(id="b", name="b", body=LorebookBody(entries=[LoreEntry(uid="intro"), LoreEntry(uid=0)]))
    written, losses = round_trip(book)
    assert sorted(written["entries"]) == ["0", "1"]
    assert any(loss.code == "world.entry.uid.renumbered" for loss in losses)


def test_book_fields_sillytavern_keeps_elsewhere_are_declared_lost():
    book = Lorebook(
        id="b",
        name="b",
        body=LorebookBody.model_validate(
            {
                "description": "d",
                "settings": {"scan_depth": 3},
                "extensions": {"x": 1},
                "entries": [{"uid": 0, "priority": 5}],
            }
        ),
    )
    codes = {loss.code for loss in round_trip(book)[1]}
    assert {
        "book.description.dropped",
        "book.settings.dropped",
        "book.extensions.dropped",
        "book.entry.priority.dropped",
    } <= codes
    assert "crossing.not_carried" not in codes


def test_written_world_uses_four_space_indent():
    data = convert_piece(read_world({"entries": {}}), WORLD, no_media).data
    assert data == b'{\n    "entries": {}\n}'


@pytest.mark.parametrize(
    "document",
    [
        {"entries": []},
        {"entries": {"0": "text"}},
        {"entries": 5},
        [1, 2],
    ],
)
def test_what_is_not_a_world_is_refused_with_a_code(document):
    with pytest.raises(BunzaiError) as error:
        read_world(document)
    assert error.value.code == "corrupt_file"


def test_garbled_json_is_refused_with_a_code():
    with pytest.raises(BunzaiError) as error:
        get_adapter(WORLD).read(b'{"entries": {', "w.json", None)
    assert error.value.code == "invalid_json"


def test_type_drift_reads_without_error():
    piece = read_world(
        {
            "entries": {
                "0": {
                    "uid": "0",
                    "key": "solo",
                    "order": "50",
                    "probability": 250,
                    "depth": -1,
                    "role": "1",
                    "position": 99,
                    "group": None,
                }
            }
        }
    )
    entry = piece.body.entries[0]
    # a bare string is no key list: the scan skips the entry (`!Array.isArray(entry.key)`)
    assert entry.keys == [] and entry.order == 50 and entry.probability == 100
    assert entry.depth == 4 and entry.role == "user" and entry.position == "before_char"
    written, _ = round_trip(piece)
    assert written["entries"]["0"]["probability"] == 250 and written["entries"]["0"]["key"] == "solo"


@pytest.mark.parametrize(
    ("entries", "uids"),
    [
        ({"0": {"uid": 0}, "1": {"uid": 1}}, [0, 1]),  # each entry's own uid
        ({"a": {"uid": "4"}, "b": {"uid": 9.0}}, [4, 9]),  # as numbers JavaScript would read
        ({"0": {"uid": 3}, "5": {"uid": 3}}, [3, 5]),  # a uid taken: the object key ...
        ({"0": {"uid": 0}, "x": {"uid": 0}}, [0, "x"]),  # ... even when it is not a number
        ({"1": {"uid": 2}, "2": {"uid": 2}, "x": {"uid": 2}}, [2, 0, "x"]),  # ... else the lowest free
        ({"7": {}, "8": {"uid": True}, "9": {"uid": None}}, [7, 8, 9]),  # no integer uid: the key
        ({"a": {"uid": 2}, "c": {"uid": "b"}}, [2, "c"]),  # a uid that is not a number: the key
    ],
)
def test_entry_uids_are_made_unique_as_the_file_means_them(entries, uids):
    assert [entry.uid for entry in read_world({"entries": entries}).body.entries] == uids
