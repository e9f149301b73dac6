"""SillyTavern persona backups: one piece per avatar, each written back as a backup of its own."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from st_side_formats_support import random_pieces, undeclared, read_json, round_trip, unknown_keys

from bunzai.errors import BunzaiError
from bunzai.model.persona import Persona, PersonaBody

FORMAT = "sillytavern.personas"

BACKUP = {
    "personas": {
        "user-default.png": "User",
        "1712345678901-Ada.png": "Ada",
        "1712345678902-Ada.png": "Ada",
        "old.png": "Legacy",
    },
    "persona_descriptions": {
        "user-default.png": {"description": "I am {{user}}.", "position": 0, "depth": 2, "role": 0},
        "1712345678901-Ada.png": {
            "description": "Ada, a mathematician.",
            "position": 4,
            "depth": 3,
            "role": 1,
            "lorebook": "Analytical Engine",
            "title": "Countess",
            "connections": [{"type": "character", "id": "Charles.png"}],
        },
        "1712345678902-Ada.png": {"description": "Another Ada.", "position": 9, "depth": "5", "role": "assistant"},
        "old.png": {"description": "Placed after the character.", "position": 1},
    },
    "default_persona": "user-default.png",
}


def test_each_avatar_becomes_its_own_persona_with_unique_ids():
    pieces = read_json(BACKUP, "personas_20250101.json").pieces
    assert [(piece.kind, piece.id, piece.name) for piece in pieces] == [
        ("persona", "user", "User"),
        ("persona", "ada", "Ada"),
        ("persona", "ada-2", "Ada"),
        ("persona", "legacy", "Legacy"),
    ]
    ada = pieces[1].body
    assert (ada.position, ada.depth, ada.role, ada.lorebook, ada.brief) == (
        "at_depth",
        3,
        "user",
        "analytical-engine",
        "Countess",
    )
    other = pieces[2].body
    assert (other.position, other.depth, other.role) == ("none", 5, "assistant")
    assert (pieces[3].body.position, pieces[3].body.depth, pieces[3].body.role) == ("in_prompt", 2, "system")


def test_each_escrow_keeps_its_own_avatar_entry():
    pieces = read_json(BACKUP, "personas.json").pieces
    assert pieces[0].original.document == {
        "personas": {"user-default.png": "User"},
        "persona_descriptions": {"user-default.png": BACKUP["persona_descriptions"]["user-default.png"]},
        "default_persona": "user-default.png",
    }
    assert pieces[1].original.document["default_persona"] is None
    assert pieces[1].original.document["persona_descriptions"]["1712345678901-Ada.png"]["connections"]


def test_reading_is_deterministic():
    assert read_json(BACKUP, "p.json").pieces == read_json(BACKUP, "p.json").pieces


@pytest.mark.parametrize("index", range(4))
def test_an_unedited_persona_writes_back_as_a_backup_of_just_it(index):
    piece = read_json(BACKUP, "personas.json").pieces[index]
    crossing = round_trip(piece, FORMAT)
    assert json.loads(crossing.data) == piece.original.document
    assert crossing.losses == []


def test_a_one_persona_backup_round_trips_json_equal_with_two_space_indent():
    document = {
        "personas": {"a.png": "A"},
        "persona_descriptions": {"a.png": {"description": "x", "position": 2, "depth": 2, "role": 0}},
        "default_persona": "a.png",
    }
    crossing = round_trip(read_json(document, "p.json").pieces[0], FORMAT)
    assert crossing.data.decode("utf-8") == json.dumps(document, indent=2, ensure_ascii=False)


def test_an_edit_rewrites_only_the_changed_fields():
    piece = read_json(BACKUP, "personas.json").pieces[3]
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"position": "top_an"})})
    written = json.loads(round_trip(edited, FORMAT).data)
    assert written["persona_descriptions"]["old.png"] == {"description": "Placed after the character.", "position": 2}


def test_a_new_persona_declares_what_a_backup_cannot_hold():
    body = PersonaBody(
        description="Me.",
        position="bottom_an",
        role="assistant",
        lorebook="my-world",
        profile={"age": "30"},
        extensions={"x": 1},
    )
    crossing = round_trip(Persona(id="me", name="Me", body=body), FORMAT)
    assert {loss.code for loss in crossing.losses} == {
        "persona.lorebook.by_id",
        "persona.profile.dropped",
        "persona.extensions.dropped",
    }
    assert json.loads(crossing.data) == {
        "personas": {"me.png": "Me"},
        "persona_descriptions": {
            "me.png": {"description": "Me.", "position": 3, "depth": 2, "role": 2, "lorebook": "my-world"}
        },
        "default_persona": None,
    }


def test_a_backup_without_personas_is_refused():
    from bunzai.adapters.registry import get_adapter

    with pytest.raises(BunzaiError) as caught:
        get_adapter(FORMAT).read(b"{}", "p.json", {"personas": {}})
    assert caught.value.code == "invalid_input"


@settings(max_examples=60, deadline=None)
@given(root=unknown_keys, entry=unknown_keys)
def test_unknown_keys_in_the_root_and_description_entries_survive(root, entry):
    document = copy.deepcopy(BACKUP) | root
    document["persona_descriptions"]["1712345678901-Ada.png"] |= entry
    piece = read_json(document, "personas.json").pieces[1]
    written = json.loads(round_trip(piece, FORMAT).data)
    assert written == piece.original.document
    assert (
        written["persona_descriptions"]["1712345678901-Ada.png"]
        == document["persona_descriptions"]["1712345678901-Ada.png"]
    )
    assert all(written[key] == value for key, value in root.items())


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_canonical_persona_crossing_in_declares_every_loss(data):
    piece = data.draw(random_pieces("persona"))
    assert undeclared(round_trip(piece, FORMAT)) == []
