"""A SillyTavern card's regex scripts crossing into Agnai's files: they stay in the character's
extensions.regex_scripts, which nothing in Agnai reads (it has no regex scripts), so the crossing
says so; a file Agnai made written back says nothing new."""

from __future__ import annotations

import json

import pytest
from cards_support import read

from bunzai.convert import convert_piece

SCRIPT = {"id": "a", "scriptName": "caps", "findRegex": "/rain/g", "replaceString": "RAIN", "placement": [2]}


def _st_card() -> bytes:
    data = {"name": "Sky", "first_mes": "hi", "extensions": {"regex_scripts": [SCRIPT]}}
    return json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}).encode()


@pytest.mark.parametrize("target", ["agnai.character.json", "agnai.tavern.json"])
def test_sillytavern_regex_scripts_crossing_into_agnai_are_named_as_never_run(target):
    _adapter, decoded, media = read(_st_card(), "Sky.json")
    crossing = convert_piece(decoded.pieces[0], target, media)
    [lost] = [loss for loss in crossing.losses if loss.code == "agnai.import.st_regex_not_run"]
    assert (lost.pointer, lost.action) == ("/body/behavior_scripts/0", "dropped") and "'caps'" in lost.why
    # the file keeps the script for other apps
    _adapter, again, media = read(crossing.data, "Sky.json", target)
    assert [script.payload["scriptName"] for script in again.pieces[0].body.behavior_scripts] == ["caps"]
    back = convert_piece(again.pieces[0], target, media)
    assert "agnai.import.st_regex_not_run" not in [loss.code for loss in back.losses]


def test_an_unnamed_script_is_called_a_script_not_an_empty_quote():
    data = {"name": "Sky", "first_mes": "hi", "extensions": {"regex_scripts": [SCRIPT | {"scriptName": ""}]}}
    card = json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}).encode()
    _adapter, decoded, media = read(card, "Sky.json")
    crossing = convert_piece(decoded.pieces[0], "agnai.character.json", media)
    [lost] = [loss for loss in crossing.losses if loss.code == "agnai.import.st_regex_not_run"]
    assert "never runs a SillyTavern regex script (" in lost.why and "''" not in lost.why
