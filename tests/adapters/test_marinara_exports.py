"""Marinara Engine characters, personas and lorebooks: platform-shaped exports (built from
Marinara's export routes and schemas) read, round-trip JSON-equal, keep unknown keys, and
cross to and from the other platforms naming what they cost; chat presets are refused clearly."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from st_side_formats_support import random_pieces
from marinara_support import (
    character_export,
    chat_preset_export,
    lorebook_entry,
    lorebook_export,
    no_media,
    persona_export,
    read,
)
from test_card_family_fidelity import at, card_documents, generated_card, leaves, primary, spec_errors

from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.common.png import default_portrait
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError


def cross(piece, target: str):
    return convert_piece(piece, target, no_media)


# --- characters --------------------------------------------------------------------------


def test_a_character_export_reads_as_its_card_and_book():
    adapter, decoded = read(character_export())
    character, book = decoded.pieces
    assert adapter.format_id == "marinara.character"
    assert (character.id, character.name, character.body.first_message) == ("mari", "Mari", "Ciao!")
    assert character.body.alternate_greetings == ["Buongiorno!"]
    assert character.body.settings.talkativeness == 0.7 and character.body.settings.favorite is True
    assert character.body.depth_prompt.text == "Stay in the kitchen."
    assert book.kind == "lorebook" and book.body.entries[0].content == "The glade is quiet."
    assert character.body.links.lorebooks == [book.id]


def test_a_character_export_round_trips_json_equal_without_losses():
    _adapter, decoded = read(character_export())
    crossing = cross(decoded.pieces[0], "marinara.character")
    assert json.loads(crossing.data) == json.loads(character_export())
    assert crossing.losses == []


def test_an_edit_rewrites_only_the_edited_field_and_keeps_marinara_extensions():
    _adapter, decoded = read(character_export())
    piece = decoded.pieces[0]
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"scenario": "a trattoria"})})
    written = json.loads(cross(piece, "marinara.character").data)
    expected = json.loads(character_export())
    expected["data"]["data"]["scenario"] = "a trattoria"
    assert written == expected


@pytest.mark.parametrize("target", ["ccv2.json", "ccv3.json", "sillytavern.card.json", "agnai.tavern.json"])
def test_every_pointer_of_a_marinara_card_arrives_in_another_card_format_or_is_named(target):
    _adapter, decoded = read(character_export())
    crossing = cross(decoded.pieces[0], target)
    before = json.loads(character_export())["data"]["data"]
    _where, after = primary(card_documents(crossing.data, target))
    named = [loss.pointer for loss in crossing.losses if loss.code != "escrow.other_format"]
    missing = [
        pointer
        for pointer, value in leaves(before)
        if at(after["data"], pointer) != value
        and not any(f"/original/document/data/data{pointer}".startswith(p) for p in named)
    ]
    assert missing == []
    assert spec_errors(after, "v3" if target == "ccv3.json" else "v2") == []


@pytest.mark.parametrize("source", ["ccv2.json", "ccv3.json"])
def test_a_card_crossing_into_marinara_keeps_every_key_or_names_it(source):
    data = generated_card()
    if source == "ccv3.json":
        _adapter, decoded = read_bytes(data, "lyra.json", "ccv2.json")
        data = cross(decoded.pieces[0], "ccv3.json").data
    _adapter, decoded = read_bytes(data, "lyra.json", source)
    crossing = cross(decoded.pieces[0], "marinara.character")
    envelope = json.loads(crossing.data)
    assert envelope["type"] == "marinara_character" and envelope["version"] == 1
    card = envelope["data"]
    assert spec_errors(card, "v2") == []  # Marinara's characterCardV2Schema is V2
    named = [loss.pointer for loss in crossing.losses if loss.code != "escrow.other_format"]
    before = json.loads(data)["data"]
    missing = [
        pointer
        for pointer, value in leaves(before)
        if at(card["data"], pointer) != value
        and not any(f"/original/document/data{pointer}".startswith(p) for p in named)
    ]
    assert missing == []
    assert card["data"]["extensions"]["world"] == "Eldoria"
    assert card["data"]["x_unknown_data"] == {"level": "data"}
    back = read_bytes(crossing.data, "lyra.marinara.json")[1].pieces[0]
    for field in ("description", "first_message", "alternate_greetings", "depth_prompt", "settings", "book"):
        assert getattr(back.body, field) == getattr(decoded.pieces[0].body, field), field


def test_a_marinara_card_and_a_v2_card_are_told_apart():
    assert read_bytes(character_export(), "mari.json")[0].format_id == "marinara.character"
    v2 = json.loads(character_export())["data"]
    v2.pop("metadata")
    assert read_bytes(json.dumps(v2).encode(), "mari.json")[0].format_id != "marinara.character"


# --- personas ----------------------------------------------------------------------------


def test_a_persona_export_reads_its_fields():
    adapter, decoded = read(persona_export())
    persona = decoded.pieces[0]
    assert adapter.format_id == "marinara.persona"
    assert (persona.id, persona.name, persona.body.brief) == ("luca", "Luca", "the regular")
    assert persona.body.profile == {
        "personality": "curious",
        "backstory": "Walked from Rome.",
        "appearance": "Dusty boots.",
    }
    assert persona.body.presentation.palette == {"name": "#c0392b", "box": "#222222"}


def test_a_persona_export_round_trips_json_equal_and_an_edit_touches_one_key():
    _adapter, decoded = read(persona_export())
    piece = decoded.pieces[0]
    crossing = cross(piece, "marinara.persona")
    assert json.loads(crossing.data) == json.loads(persona_export()) and crossing.losses == []
    profile = dict(piece.body.profile, scenario="At the market.")
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"profile": profile})})
    expected = json.loads(persona_export())
    expected["data"]["scenario"] = "At the market."
    assert json.loads(cross(edited, "marinara.persona").data) == expected


def test_a_sillytavern_persona_crossing_into_marinara_names_what_it_cannot_hold():
    backup = {
        "personas": {"me.png": "Me"},
        "persona_descriptions": {
            "me.png": {"description": "I am here.", "position": 4, "depth": 3, "role": 1, "lorebook": "Eldoria"}
        },
        "default_persona": None,
    }
    _adapter, decoded = read_bytes(json.dumps(backup).encode(), "personas.json")
    crossing = cross(decoded.pieces[0], "marinara.persona")
    codes = {loss.pointer: loss.code for loss in crossing.losses}
    assert codes["/body/position"] == codes["/body/depth"] == "marinara.persona.placement.dropped"
    assert codes["/body/lorebook"] == "marinara.persona.lorebook.dropped"
    back = read_bytes(crossing.data, "me.marinara.json")[1].pieces[0]
    assert (back.name, back.body.description) == ("Me", "I am here.")


# --- lorebooks ---------------------------------------------------------------------------


def test_a_lorebook_export_reads_its_settings_and_entries():
    adapter, decoded = read(lorebook_export())
    book = decoded.pieces[0]
    assert adapter.format_id == "marinara.lorebook"
    assert (book.id, book.name, book.body.description) == ("italy", "Italy", "Places of Italy.")
    settings_ = book.body.settings
    assert (
        settings_.scan_depth,
        settings_.token_budget,
        settings_.recursive_scanning,
        settings_.max_recursion_steps,
    ) == (3, 1024, True, 2)
    rome = book.body.entries[1]
    assert [(k.text, k.regex) for k in rome.keys] == [("rom(e|a)", True)]
    assert (rome.selective_logic, rome.position, rome.depth, rome.role, rome.probability) == (
        "not_any",
        "at_depth",
        3,
        "user",
        60,
    )
    assert (rome.group.names, rome.group.weight, rome.sticky, rome.case_sensitive) == (["cities"], 80, 2, True)
    assert rome.match_persona_description is True and rome.prevent_recursion is True


def test_a_lorebook_export_round_trips_json_equal_and_an_edit_touches_one_key():
    _adapter, decoded = read(lorebook_export())
    book = decoded.pieces[0]
    crossing = cross(book, "marinara.lorebook")
    assert json.loads(crossing.data) == json.loads(lorebook_export()) and crossing.losses == []
    entries = list(book.body.entries)
    entries[0] = entries[0].model_copy(update={"content": "A city by the bay.", "position": "after_char"})
    edited = book.model_copy(update={"body": book.body.model_copy(update={"entries": entries})})
    expected = json.loads(lorebook_export())
    expected["data"]["entries"][0] |= {"content": "A city by the bay.", "position": 1}
    assert json.loads(cross(edited, "marinara.lorebook").data) == expected


def test_a_repeated_entry_id_reads_by_its_place_and_is_written_back_as_the_file_gave_it():
    document = json.loads(lorebook_export())
    rows = document["data"]["entries"]
    rows[1]["id"] = rows[0]["id"]
    rows.append(lorebook_entry(id="entry-1"))  # a later row's own id is the place's name: it keeps it
    rows.append(lorebook_entry())
    del rows[3]["id"]
    data = json.dumps(document).encode()
    _adapter, decoded = read(data)
    book = decoded.pieces[0]
    assert [entry.uid for entry in book.body.entries] == [rows[0]["id"], "entry-1-2", "entry-1", "entry-3"]
    crossing = cross(book, "marinara.lorebook")
    assert json.loads(crossing.data) == document and crossing.losses == []


@pytest.mark.parametrize(
    ("logic", "read_as"),
    [("and", "and_any"), ("or", "and_any"), ("and_all", "and_all"), ("not", "not_any"), ("not_all", "not_all")],
)
def test_each_logic_reads_as_marinaras_keyword_matching_tests_it(logic, read_as):
    # testSecondaryKeys since Marinara took SillyTavern's four logics: `and` and `or` are any key
    document = json.loads(lorebook_export())
    document["data"]["entries"][0] |= {"selective": True, "secondaryKeys": ["sea", "port"], "selectiveLogic": logic}
    book = read(json.dumps(document).encode())[1].pieces[0]
    assert (book.body.entries[0].selective, book.body.entries[0].selective_logic) == (True, read_as)
    crossing = cross(book, "marinara.lorebook")
    assert json.loads(crossing.data) == document and crossing.losses == []


@pytest.mark.parametrize("logic", [["or"], "xyz", 1, "OR", None])
def test_a_logic_marinara_does_not_know_or_none_reads_as_and(logic):
    # resolveNativeSelectiveLogic: any value but the five names (exactly so spelled) imports as `and`
    document = json.loads(lorebook_export())
    document["data"]["entries"][0] |= {"selective": True, "selectiveLogic": logic}
    del document["data"]["entries"][1]["selectiveLogic"]
    document["data"]["entries"][1]["selective"] = True
    book = read(json.dumps(document).encode())[1].pieces[0]
    assert [(e.selective, e.selective_logic) for e in book.body.entries[:2]] == [(True, "and_any")] * 2
    crossing = cross(book, "marinara.lorebook")
    assert json.loads(crossing.data) == document and crossing.losses == []


@pytest.mark.parametrize(
    ("logic", "written"), [("and_all", "and_all"), ("not_all", "not_all"), ("not_any", "not"), ("and_any", "or")]
)
def test_an_edit_of_the_logic_writes_marinaras_name_for_it(logic, written):
    document = json.loads(lorebook_export())
    document["data"]["entries"][1]["selectiveLogic"] = "or"  # any key, in the older name
    book = read(json.dumps(document).encode())[1].pieces[0]
    entries = list(book.body.entries)
    entries[1] = entries[1].model_copy(update={"selective_logic": logic})
    edited = book.model_copy(update={"body": book.body.model_copy(update={"entries": entries})})
    crossing = cross(edited, "marinara.lorebook")
    row = json.loads(crossing.data)["data"]["entries"][1]
    assert row["selectiveLogic"] == written and crossing.losses == []


@pytest.mark.parametrize(
    ("position", "read_as"),
    [
        (7, "outlet"),
        ("outlet", "outlet"),
        ("after_char", "after_char"),
        ("depth", "at_depth"),
        (2.0, "at_depth"),
        (3, "before_char"),
        ("2", "before_char"),
        (True, "before_char"),
    ],
)
def test_a_position_reads_as_marinaras_import_resolves_it(position, read_as):
    document = json.loads(lorebook_export())
    document["data"]["entries"][0] |= {"position": position, "outletName": "Weather"}
    book = read(json.dumps(document).encode())[1].pieces[0]
    assert (book.body.entries[0].position, book.body.entries[0].outlet) == (read_as, "Weather")


def test_an_outlet_and_the_recursion_flags_cross_from_sillytavern_and_back():
    world = {
        "entries": {
            "0": {
                "uid": 0,
                "key": ["rain"],
                "content": "It rains.",
                "comment": "Weather",
                "position": 7,
                "outletName": "weather",
                "excludeRecursion": True,
                "delayUntilRecursion": True,
                "preventRecursion": False,
            }
        }
    }
    _adapter, decoded = read_bytes(json.dumps(world).encode(), "Sky.json", "sillytavern.world")
    crossing = cross(decoded.pieces[0], "marinara.lorebook")
    row = json.loads(crossing.data)["data"]["entries"][0]
    assert (row["position"], row["outletName"], row["excludeRecursion"], row["delayUntilRecursion"]) == (
        7,
        "weather",
        True,
        True,
    )
    carried = ("position", "outlet", "exclude_recursion", "delay_until_recursion", "prevent_recursion")
    assert row["preventRecursion"] is False
    assert not [loss for loss in crossing.losses if loss.pointer.rsplit("/", 1)[-1] in carried]
    back = json.loads(cross(read(crossing.data)[1].pieces[0], "sillytavern.world").data)["entries"]["0"]
    assert (back["position"], back["outletName"], back["excludeRecursion"], back["delayUntilRecursion"]) == (
        7,
        "weather",
        True,
        True,
    )


@pytest.mark.parametrize(("level", "flag", "named"), [(2, True, True), (1, True, False), (0, False, False)])
def test_a_recursion_level_past_the_first_is_on_in_marinara_and_named(level, flag, named):
    # SillyTavern runs `true` as level 1 and 0 as off: only a deeper level is lost
    world = {"entries": {"0": {"uid": 0, "key": ["rain"], "content": "It rains.", "delayUntilRecursion": level}}}
    _adapter, decoded = read_bytes(json.dumps(world).encode(), "Sky.json", "sillytavern.world")
    crossing = cross(decoded.pieces[0], "marinara.lorebook")
    assert json.loads(crossing.data)["data"]["entries"][0]["delayUntilRecursion"] is flag
    codes = {loss.pointer: loss.code for loss in crossing.losses}
    found = codes.get("/body/entries/0/delay_until_recursion")
    assert found == ("marinara.lorebook.entry.recursion_level" if named else None)


def test_a_row_without_prevent_recursion_reads_as_marinaras_import_fills_it():
    document = json.loads(lorebook_export())
    del document["data"]["entries"][0]["preventRecursion"]  # importLorebookPayload: missing is true
    assert read(json.dumps(document).encode())[1].pieces[0].body.entries[0].prevent_recursion is True


def test_a_new_entry_gets_marinaras_column_defaults():
    _adapter, decoded = read(lorebook_export())
    book = decoded.pieces[0]
    fresh = book.body.entries[0].model_copy(update={"uid": 7, "title": "Milan", "content": "Fashion."})
    edited = book.model_copy(update={"body": book.body.model_copy(update={"entries": [*book.body.entries, fresh]})})
    crossing = cross(edited, "marinara.lorebook")
    row = json.loads(crossing.data)["data"]["entries"][2]
    assert set(row) == set(lorebook_entry())
    assert (row["name"], row["content"], row["keys"]) == ("Milan", "Fashion.", ["naples", "city"])
    assert [loss.code for loss in crossing.losses] == ["marinara.lorebook.entry.id"]


@pytest.mark.parametrize("target", ["sillytavern.world", "lorebook_v3.json", "agnai.memory.json"])
def test_a_lorebook_crosses_out_and_back_with_every_difference_named(target):
    _adapter, decoded = read(lorebook_export())
    book = decoded.pieces[0]
    out = cross(book, target)
    assert all(loss.code != "crossing.not_carried" for loss in out.losses)
    _adapter, back = read_bytes(out.data, "italy.json", target)
    home = cross(back.pieces[0], "marinara.lorebook")
    assert all(loss.code != "crossing.not_carried" for loss in home.losses)
    entries = {row["name"]: row for row in json.loads(home.data)["data"]["entries"]}
    assert entries["Naples"]["content"] == "A city by the sea." and entries["Rome"]["keys"] == ["rom(e|a)"]


def test_a_sillytavern_world_crossing_into_marinara_keeps_its_logic_and_recursion():
    world = {
        "entries": {
            "0": {
                "uid": 0,
                "key": ["dragon"],
                "keysecondary": ["fire", "cave"],
                "content": "A dragon.",
                "comment": "Dragon",
                "selectiveLogic": 1,
                "position": 4,
                "depth": 2,
                "outletName": "",
                "excludeRecursion": True,
                "disable": False,
                "order": 10,
            }
        }
    }
    _adapter, decoded = read_bytes(json.dumps(world).encode(), "Beasts.json", "sillytavern.world")
    crossing = cross(decoded.pieces[0], "marinara.lorebook")
    codes = {loss.pointer: loss.code for loss in crossing.losses}
    assert "/body/entries/0/selective_logic" not in codes  # NOT_ALL is Marinara's not_all
    row = json.loads(crossing.data)["data"]["entries"][0]
    assert (row["name"], row["keys"], row["position"], row["depth"]) == ("Dragon", ["dragon"], 2, 2)
    assert (row["selectiveLogic"], row["excludeRecursion"]) == ("not_all", True)


# --- chat presets, sniffing ----------------------------------------------------------------


def test_a_chat_preset_is_refused_as_what_it_is():
    with pytest.raises(BunzaiError) as refused:
        read(chat_preset_export(), "slow-burn.marinara-chat-preset.json")
    assert refused.value.code == "unsupported" and "chat preset" in refused.value.message


@pytest.mark.parametrize(
    ("data", "fmt"),
    [
        (character_export(), "marinara.character"),
        (persona_export(), "marinara.persona"),
        (lorebook_export(), "marinara.lorebook"),
    ],
)
def test_an_envelope_of_another_type_is_refused_when_named(data, fmt):
    other = json.loads(data)
    other["type"] = "marinara_profile"
    with pytest.raises(BunzaiError) as refused:
        read_bytes(json.dumps(other).encode(), "x.marinara.json", fmt)
    assert refused.value.code == "corrupt_file"


# --- properties ----------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(piece=random_pieces("lorebook"))
def test_any_lorebook_crossing_into_marinara_declares_every_loss(piece):
    crossing = cross(piece, "marinara.lorebook")
    assert all(loss.code != "crossing.not_carried" for loss in crossing.losses)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(piece=random_pieces("persona"))
def test_any_persona_crossing_into_marinara_declares_every_loss(piece):
    # any portrait's bytes are a small PNG here: written as the avatar, read back as another image
    crossing = convert_piece(piece, "marinara.persona", lambda ref: default_portrait())
    assert all(loss.code != "crossing.not_carried" for loss in crossing.losses)
