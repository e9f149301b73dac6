"""Marinara's import names a persona `Imported Persona` and a lorebook `Imported Lorebook` only when
the name is missing (`String(d.name ?? "Imported Persona")`, marinara.importer.ts): an empty or blank
name is kept as it is."""

from __future__ import annotations

import json

import pytest
from marinara_support import envelope, lorebook_export, no_media, persona_export, read

from bunzai.convert import convert_piece

CASES = [("", ""), ("   ", "   "), ("Luca", "Luca"), (None, "FALLBACK"), ("missing", "FALLBACK")]


def persona(name):
    data = json.loads(persona_export())["data"]
    data.pop("name") if name == "missing" else data.update(name=name)
    return envelope("marinara_persona", data)


def lorebook(name):
    data = json.loads(lorebook_export())["data"]
    data["lorebook"].pop("name") if name == "missing" else data["lorebook"].update(name=name)
    return envelope("marinara_lorebook", data)


@pytest.mark.parametrize(("build", "fallback"), [(persona, "Imported Persona"), (lorebook, "Imported Lorebook")])
@pytest.mark.parametrize(("name", "expected"), CASES)
def test_only_a_missing_name_gets_marinara_s_fallback(build, fallback, name, expected):
    raw = build(name)
    _adapter, decoded = read(raw)
    piece = decoded.pieces[0]
    assert piece.name == (fallback if expected == "FALLBACK" else expected)
    crossing = convert_piece(piece, piece.original.format, no_media)
    assert crossing.losses == []
