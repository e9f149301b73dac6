"""A persona backup entry whose avatar has no name in `personas`.

SillyTavern's restore (public/scripts/personas.js onPersonasRestoreInput) skips a
description whose avatar has no (truthy) name, and lists such an avatar as
"[Unnamed Persona]": bunzai reads it under that label, warns, and reports the skip
whenever it writes a backup without the name.
"""

from __future__ import annotations

import json

import pytest
from st_side_formats_support import read_json, round_trip

from bunzai.model.persona import Persona, PersonaBody

FORMAT = "sillytavern.personas"
ENTRY = {"description": "A quiet scribe.", "position": 0, "depth": 2, "role": 0}


@pytest.mark.parametrize("names", [{}, {"scribe-01.png": ""}, {"scribe-01.png": None}])
def test_a_description_without_a_name_reads_as_sillytavern_lists_it_and_warns(names):
    backup = {"personas": names, "persona_descriptions": {"scribe-01.png": ENTRY}, "default_persona": None}
    decoded = read_json(backup, "personas.json")
    (piece,) = decoded.pieces
    assert piece.name == "[Unnamed Persona]" and piece.id == "scribe-01"
    assert piece.body.description == "A quiet scribe."
    assert len(decoded.warnings) == 1 and "scribe-01.png" in decoded.warnings[0]
    assert "skips its description" in decoded.warnings[0]


def test_writing_it_back_keeps_the_file_and_reports_the_skip():
    backup = {"personas": {}, "persona_descriptions": {"scribe-01.png": ENTRY}, "default_persona": None}
    piece = read_json(backup, "personas.json").pieces[0]
    crossing = round_trip(piece, FORMAT)
    assert json.loads(crossing.data) == backup
    assert [(loss.pointer, loss.code) for loss in crossing.losses] == [("/name", "persona.name.empty")]


def test_a_renamed_unnamed_persona_gets_its_name_and_no_loss():
    backup = {"personas": {}, "persona_descriptions": {"scribe-01.png": ENTRY}, "default_persona": None}
    piece = read_json(backup, "personas.json").pieces[0].model_copy(update={"name": "Scribe"})
    crossing = round_trip(piece, FORMAT)
    assert json.loads(crossing.data)["personas"] == {"scribe-01.png": "Scribe"}
    assert crossing.losses == []


def test_a_nameless_new_persona_reports_the_skip():
    crossing = round_trip(Persona(id="me", name="", body=PersonaBody(description="x")), FORMAT)
    assert "persona.name.empty" in {loss.code for loss in crossing.losses}


def test_a_named_persona_warns_of_nothing():
    backup = {"personas": {"a.png": "Ada"}, "persona_descriptions": {"a.png": ENTRY}, "default_persona": None}
    assert read_json(backup, "personas.json").warnings == []
