"""A SillyTavern card's regex scripts crossing into a RisuAI CHARX: card.json keeps them in
extensions.regex_scripts, which RisuAI never reads (no `regex_scripts` anywhere in its src/;
it runs extensions.risuai.customScripts and module.risum), so the crossing says so."""

from __future__ import annotations

import json
import zipfile
from io import BytesIO

from cards_support import read

from bunzai.convert import convert_piece


def _script(name: str) -> dict:
    return {
        "id": name,
        "scriptName": name,
        "findRegex": "/rain/gi",
        "replaceString": "RAIN",
        "trimStrings": [],
        "placement": [2],
        "disabled": False,
        "markdownOnly": True,
        "promptOnly": False,
        "runOnEdit": True,
        "substituteRegex": 0,
        "minDepth": None,
        "maxDepth": None,
    }


def _st_card() -> bytes:
    data = {"name": "Sky", "first_mes": "hi", "extensions": {"regex_scripts": [_script("caps"), _script("quiet")]}}
    return json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}).encode()


def test_sillytavern_regex_scripts_crossing_into_a_risuai_charx_are_named_as_never_run(no_table):
    _adapter, decoded, media = read(_st_card(), "Sky.json")
    crossing = convert_piece(decoded.pieces[0], "risu.charx", media)
    lost = [loss for loss in crossing.losses if loss.code == "risu.import.st_regex_not_run"]
    assert [(loss.pointer, loss.action) for loss in lost] == [
        ("/body/behavior_scripts/0", "dropped"),
        ("/body/behavior_scripts/1", "dropped"),
    ]
    assert "'caps'" in lost[0].why and "'quiet'" in lost[1].why
    card = json.loads(zipfile.ZipFile(BytesIO(crossing.data)).read("card.json"))
    assert [script["scriptName"] for script in card["data"]["extensions"]["regex_scripts"]] == ["caps", "quiet"]


def test_a_risuai_charx_holding_them_written_back_names_nothing_new(no_table):
    _adapter, decoded, media = read(_st_card(), "Sky.json")
    charx = convert_piece(decoded.pieces[0], "risu.charx", media).data
    _adapter, again, media = read(charx, "Sky.charx", "risu.charx")
    crossing = convert_piece(again.pieces[0], "risu.charx", media)
    assert "risu.import.st_regex_not_run" not in [loss.code for loss in crossing.losses]
