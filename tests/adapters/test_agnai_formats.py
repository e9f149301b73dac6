"""Agnai: native characters, memory books, the hybrid Tavern export and V3 cards Agnai can import."""

from __future__ import annotations

import copy
import json

import pytest
from agnai_textgen_support import media, rich_character
from cards_support import cross, edit_body, not_carried, read
from testkit import CORPUS

from bunzai.adapters.inspect import inspect_bytes
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError

AGNAI_FORMATS = ["agnai.character.json", "agnai.tavern.json", "agnai.card.v3.json"]


def memory_book() -> dict:
    return {
        "kind": "memory",
        "name": "Eldoria",
        "description": "the land",
        "entries": [
            {
                "name": "Tower",
                "entry": "The tower glows.",
                "keywords": ["tower", "spire*"],
                "priority": 10,
                "weight": 5,
                "enabled": True,
                "id": 0,
                "comment": "",
                "secondaryKeys": ["night"],
                "selective": True,
                "selectiveLogic": 1,
                "position": "after_char",
                "probability": 50,
                "useProbability": True,
            },
            {"name": "Gate", "entry": "A gate.", "keywords": ["gate"], "priority": "3", "weight": 1.0, "enabled": True},
        ],
        "scanDepth": 50,
        "tokenBudget": 500,
        "recursiveScanning": False,
        "extensions": {"chub": {"id": 1}},
    }


def native_character(persona: dict | None = None) -> dict:
    return {
        "kind": "character",
        "userId": "u1",
        "name": "Seraphina",
        "description": "A guardian (creator notes).",
        "appearance": "green eyes",
        "avatar": "/assets/abc.png",
        "persona": persona or {"kind": "wpp", "attributes": {"species": ["elf"], "mind": ["kind", "brave"]}},
        "greeting": "*She smiles* Hello {{user}}.",
        "scenario": "A forest.",
        "sampleChat": "{{user}}: hi\n{{char}}: hi",
        "culture": "en-us",
        "tags": ["fantasy"],
        "visualType": "sprite",
        "createdAt": "2024-05-01T10:00:00.000Z",
        "updatedAt": "2024-05-02T10:00:00.123Z",
        "favorite": True,
        "voice": {"service": "webspeechsynthesis"},
        "alternateGreetings": ["Hi again."],
        "characterBook": memory_book(),
        "extensions": {"depth_prompt": {"prompt": "old", "depth": 4}, "talkativeness": "0.6", "chub": {"id": 7}},
        "systemPrompt": "sys {{original}}",
        "postHistoryInstructions": "",
        "insert": {"depth": 3, "prompt": "note"},
        "creator": "me",
        "characterVersion": "1.2",
    }


def tavern_export() -> dict:
    """The shape of Agnai's exportCharacter(char, 'tavern')."""
    persona = {"kind": "text", "attributes": {"text": ["A kind elf."]}}
    data = {
        "name": "Seraphina",
        "first_mes": "Hello.",
        "scenario": "A forest.",
        "description": "A kind elf.",
        "personality": "",
        "mes_example": "",
        "creator_notes": "notes",
        "system_prompt": "",
        "post_history_instructions": "",
        "alternate_greetings": [],
        "character_book": {
            "name": "Eldoria",
            "description": "",
            "entries": [
                {
                    "keys": ["tower"],
                    "content": "c",
                    "extensions": {},
                    "enabled": True,
                    "insertion_order": 5,
                    "name": "Tower",
                    "priority": 100,
                    "id": 0,
                    "selective": False,
                    "constant": False,
                }
            ],
            "extensions": {},
            "scan_depth": 50,
        },
        "tags": [],
        "creator": "",
        "character_version": "",
        "extensions": {"depth_prompt": {"depth": 4, "prompt": ""}, "agnai": {"persona": persona, "voice": {}}},
    }
    root = {key: data[key] for key in ("name", "first_mes", "scenario", "description", "personality", "mes_example")}
    return root | {"spec": "chara_card_v2", "spec_version": "2.0", "data": data}


def _bytes(document: dict) -> bytes:
    return json.dumps(document, indent=2).encode()


# --- the corpus ------------------------------------------------------------------------


def test_the_agnai_corpus_holds_only_a_json_schema_which_is_not_a_piece():
    """Agnai ships no sample character or book; its corpus folder holds the JSON Schema of
    its scenario books. A schema describes files, it is not one: it is not imported."""
    folder = CORPUS / "agnai"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent (../shared/corpus is not beside this checkout)")
    files = sorted(p.name for p in folder.iterdir() if p.suffix != ".md")
    assert files == ["scenario-schema-v1.json"]
    schema = json.loads((folder / "scenario-schema-v1.json").read_text())
    assert "$schema" in schema or "properties" in schema
    with pytest.raises(BunzaiError) as error:
        inspect_bytes((folder / "scenario-schema-v1.json").read_bytes(), "scenario-schema-v1.json")
    assert error.value.code == "unrecognized_file"


# --- sniffing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (native_character(), "agnai.character.json"),
        ({k: v for k, v in native_character().items() if k != "kind"}, "agnai.character.json"),
        (memory_book(), "agnai.memory.json"),
        (tavern_export(), "agnai.tavern.json"),
    ],
)
def test_each_agnai_file_is_claimed_by_its_format(document, expected):
    assert inspect_bytes(_bytes(document), "x.json").adapter.format_id == expected


def test_a_sillytavern_json_card_with_an_agnai_extension_stays_sillytavern():
    document = tavern_export() | {"avatar": "none", "talkativeness": "0.5", "creatorcomment": ""}
    assert inspect_bytes(_bytes(document), "x.json").adapter.format_id == "sillytavern.card.json"


# --- native characters -------------------------------------------------------------------


def test_native_character_reads_persona_as_description_and_book_as_linked_lorebook():
    _adapter, decoded, _media = read(_bytes(native_character()), "sera.json")
    character, book = decoded.pieces
    body = character.body
    assert body.description == '[character("Seraphina") {\nspecies("elf")\nmind("kind" + "brave")\n}]'
    assert (body.first_message, body.example_messages, body.creator_notes) == (
        "*She smiles* Hello {{user}}.",
        "{{user}}: hi\n{{char}}: hi",
        "A guardian (creator notes).",
    )
    assert (body.depth_prompt.text, body.depth_prompt.depth) == ("note", 3)
    assert body.settings.favorite is True and body.settings.talkativeness == 0.6
    assert body.creation_date == 1714557600 and body.extensions == {"chub": {"id": 7}}
    assert character.body.links.lorebooks == [book.id] and book.name == "Eldoria"
    assert [e.order for e in book.body.entries] == [5, 1] and book.body.entries[1].priority == 3
    assert book.body.entries[0].keys[1].text == "spire*" and not book.body.entries[0].keys[1].regex


def test_native_character_round_trip_is_byte_equal():
    data = json.dumps(native_character(), indent=2, ensure_ascii=False).encode()
    crossing = cross(data, "sera.json")
    assert crossing.data == data and crossing.losses == []


def test_edited_description_replaces_the_structured_persona_and_says_so():
    crossing = cross(_bytes(native_character()), "sera.json", edit=edit_body(description="A plain text now."))
    document = json.loads(crossing.data)
    assert document["persona"] == {"kind": "text", "attributes": {"text": ["A plain text now."]}}
    assert [loss.code for loss in crossing.losses] == ["agnai.persona.to_text"]


@pytest.mark.parametrize("kind", ["wpp", "sbf", "boostyle", "attributes", "text"])
def test_every_persona_kind_survives_an_unedited_round_trip(kind):
    persona = {"kind": kind, "attributes": {"text": ["t"]} if kind == "text" else {"looks": ["tall", "dark"]}}
    data = json.dumps(native_character(persona), indent=2).encode()
    assert cross(data, "sera.json").data == data


# --- memory books ------------------------------------------------------------------------


def test_memory_book_round_trip_is_byte_equal_and_edits_keep_unknown_keys():
    data = json.dumps(memory_book(), indent=2).encode()
    crossing = cross(data, "book.json")
    assert crossing.data == data and crossing.losses == []

    def retitle(piece):
        entries = [entry.model_copy(update={"content": "changed"}) for entry in piece.body.entries]
        return piece.model_copy(update={"body": piece.body.model_copy(update={"entries": entries})})

    edited = json.loads(cross(data, "book.json", edit=retitle).data)
    expected = memory_book()
    for entry in expected["entries"]:
        entry["entry"] = "changed"
    assert edited == expected


def test_a_book_crossing_into_agnai_names_dropped_extensions_and_case_sensitivity():
    document = {
        "spec": "lorebook_v3",
        "data": {
            "name": "L",
            "entries": [
                {
                    "keys": ["k"],
                    "content": "c",
                    "enabled": True,
                    "insertion_order": 1,
                    "case_sensitive": True,
                    "extensions": {"app": 1},
                },
                {"keys": ["e"], "content": "", "enabled": True, "insertion_order": 2, "extensions": {}},
            ],
        },
    }
    crossing = cross(json.dumps(document).encode(), "l.json", "agnai.memory.json")
    codes = {(loss.pointer, loss.code) for loss in crossing.losses}
    assert ("/body/entries/0/extensions", "agnai.entry.extensions.dropped") in codes
    assert ("/body/entries/0/case_sensitive", "agnai.entry.case_sensitive.dropped") in codes
    assert ("/body/entries/1", "agnai.entry.empty_dropped") in codes
    assert not_carried(crossing) == []
    written = json.loads(crossing.data)
    assert written["kind"] == "memory" and written["entries"][0]["entry"] == "c"
    # no canonical priority: the key is left out, which Agnai's import reads as 0
    assert set(written["entries"][0]) >= {"name", "entry", "keywords", "weight", "enabled"}


# --- the Tavern export and the V3 writer ----------------------------------------------------


def test_tavern_export_round_trip_is_json_equal_and_reports_agnai_import_losses():
    crossing = cross(_bytes(tavern_export()), "sera.json")
    assert json.loads(crossing.data) == tavern_export() and crossing.losses == []
    edited = cross(_bytes(tavern_export()), "sera.json", edit=edit_body(personality="brave", description="new"))
    document = json.loads(edited.data)
    assert document["description"] == document["data"]["description"] == "new"
    assert document["personality"] == document["data"]["personality"] == "brave"
    assert edited.losses == []  # a round trip of Agnai's own file: only what the file cannot hold is a loss
    into = cross(_bytes(tavern_export()), "sera.json", "ccv2.json", edit=edit_body(personality="brave"))
    back = cross(into.data, "sera.json", "agnai.tavern.json")
    # the saved persona still renders to the description: Agnai would take it and drop the
    # personality, so the writer turns it into the folded text, and says so
    codes = [loss.code for loss in back.losses if loss.code.startswith("agnai.")]
    assert codes == ["agnai.saved_persona.to_text", "agnai.personality.folded"]
    assert json.loads(back.data)["data"]["extensions"]["agnai"]["persona"]["attributes"]["text"] == [
        "A kind elf.\nbrave"
    ]


def test_v3_for_agnai_duplicates_the_v1_fields_at_the_root():
    crossing = convert_piece(rich_character(), "agnai.card.v3.json", media)
    document = json.loads(crossing.data)
    assert list(document)[:6] == ["name", "first_mes", "scenario", "description", "personality", "mes_example"]
    assert document["spec"] == "chara_card_v3" and document["data"]["nickname"] == "Ada"
    for key in ("name", "first_mes", "scenario", "description", "personality", "mes_example"):
        assert document[key] == document["data"][key]
    assert not_carried(crossing) == []
    assert "agnai.v3.read_as_v1" in {loss.code for loss in crossing.losses}
    again = cross(crossing.data, "ada.json", "agnai.card.v3.json")
    assert json.loads(again.data) == document


def test_v3_for_agnai_files_are_still_claimed_by_the_ccv3_reader():
    crossing = convert_piece(rich_character(), "agnai.card.v3.json", media)
    assert inspect_bytes(crossing.data, "ada.json").adapter.format_id == "ccv3.json"


# --- crossings of a rich character ----------------------------------------------------------


@pytest.mark.parametrize("target", AGNAI_FORMATS)
def test_a_rich_character_crossing_into_agnai_names_every_field_it_drops(target):
    crossing = convert_piece(rich_character(), target, media)
    assert not_carried(crossing) == []
    codes = {loss.code for loss in crossing.losses}
    assert "agnai.personality.folded" in codes
    if target != "agnai.card.v3.json":
        assert {"agnai.entry.extensions.dropped", "agnai.entry.case_sensitive.dropped"} <= codes


def test_a_rich_book_crossing_into_an_agnai_memory_book_names_every_field_it_drops():
    from bunzai.model.lorebook import Lorebook

    book = rich_character().body.book.model_dump(mode="json")
    piece = Lorebook.model_validate(
        {
            "id": "lore",
            "name": "Lore",
            "body": {key: book[key] for key in ("description", "settings", "entries", "extensions")},
        }
    )
    crossing = convert_piece(piece, "agnai.memory.json", media)
    assert not_carried(crossing) == []


def test_agnai_adapters_declare_the_agnai_macro_engine():
    from bunzai.adapters.registry import get_adapter

    for format_id in [*AGNAI_FORMATS, "agnai.memory.json"]:
        assert get_adapter(format_id).engine == "agnai"


# --- hostile input -------------------------------------------------------------------------


@pytest.mark.parametrize("format_id", [*AGNAI_FORMATS, "agnai.memory.json"])
@pytest.mark.parametrize("data", [b"[1, 2]", b'{"kind": "character", ', b'"text"'])
def test_bad_input_gives_a_coded_error(format_id, data):
    from bunzai.adapters.inspect import read_bytes

    with pytest.raises(BunzaiError) as error:
        read_bytes(data, "x.json", format_id)
    assert error.value.code in ("corrupt_file", "invalid_json", "unsupported")


def test_type_drift_and_nulls_read_as_defaults():
    document = native_character()
    document |= {
        "greeting": None,
        "tags": "oops",
        "favorite": "true",
        "insert": {"depth": "2", "prompt": None},
        "createdAt": "not a date",
        "characterBook": copy.deepcopy(memory_book()),
    }
    document["characterBook"]["entries"][0] |= {"keywords": None, "weight": "x", "enabled": "false"}
    data = _bytes(document)
    _adapter, decoded, _media = read(data, "x.json")
    body = decoded.pieces[0].body
    assert (body.first_message, body.tags, body.settings.favorite, body.depth_prompt.depth) == ("", ["oops"], True, 2)
    assert body.creation_date is None and body.book.entries[0].keys == [] and not body.book.entries[0].enabled
    assert json.loads(cross(data, "x.json").data) == document
