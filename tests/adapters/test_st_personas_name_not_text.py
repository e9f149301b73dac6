"""A persona backup whose name is no string: SillyTavern takes any truthy name (its restore,
personas.js onPersonasRestoreInput) and shows it as JavaScript's String(name) (the persona
list, the sort, {{user}}); bunzai reads it so, warns, and writes the file's value back."""

from __future__ import annotations

import json

import pytest
from st_side_formats_support import read_json, round_trip

FORMAT = "sillytavern.personas"
ENTRY = {"description": "A quiet scribe.", "position": 0, "depth": 2, "role": 0}


def _backup(name) -> dict:
    return {"personas": {"scribe.png": name}, "persona_descriptions": {"scribe.png": ENTRY}, "default_persona": None}


@pytest.mark.parametrize(
    ("name", "shown"),
    [(7, "7"), (2.5, "2.5"), (3.0, "3"), (True, "true"), (["Ada", None, 2], "Ada,,2"), ({"a": 1}, "[object Object]")],
)
def test_a_truthy_name_reads_as_sillytavern_shows_it(name, shown):
    decoded = read_json(_backup(name), "personas.json")
    (piece,) = decoded.pieces
    assert piece.name == shown and piece.body.description == "A quiet scribe."
    assert len(decoded.warnings) == 1 and "not text" in decoded.warnings[0]


@pytest.mark.parametrize("name", [0, 0.0, False])
def test_a_falsy_name_is_unnamed_as_before(name):
    decoded = read_json(_backup(name), "personas.json")
    assert decoded.pieces[0].name == "[Unnamed Persona]"
    assert "skips its description" in decoded.warnings[0]


def test_an_unedited_number_name_is_written_back_as_the_number_without_a_loss():
    piece = read_json(_backup(7), "personas.json").pieces[0]
    crossing = round_trip(piece, FORMAT)
    assert json.loads(crossing.data) == _backup(7) and crossing.losses == []


def test_a_renamed_number_name_is_written_as_the_new_name():
    piece = read_json(_backup(7), "personas.json").pieces[0].model_copy(update={"name": "Scribe"})
    assert json.loads(round_trip(piece, FORMAT).data)["personas"] == {"scribe.png": "Scribe"}
