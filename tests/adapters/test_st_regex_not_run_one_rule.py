"""Agnai, RisuAI and Marinara never run a SillyTavern regex script a character carries: each names
it through the one helper (bunzai.adapters.common.st_regex_losses), with its own code and sentence,
one loss per script at its place, naming the script or saying "a SillyTavern regex script"."""

from __future__ import annotations

import json

import pytest
from cards_support import read

from bunzai.adapters.agnai.import_losses import ST_REGEX_NOT_RUN as AGNAI
from bunzai.adapters.common.st_regex_losses import SCRIPT
from bunzai.adapters.marinara.character import ST_REGEX_NOT_RUN as MARINARA
from bunzai.adapters.risu.charx import IMPORT_ST_REGEX as RISU
from bunzai.convert import convert_piece

RULE = {
    "agnai.character.json": AGNAI,
    "agnai.tavern.json": AGNAI,
    "risu.charx": RISU,
    "marinara.character": MARINARA,
}
SCRIPTS = [
    {"id": "a", "scriptName": "caps", "findRegex": "/rain/g", "replaceString": "RAIN", "placement": [2]},
    {"id": "b", "scriptName": "", "findRegex": "/sun/g", "replaceString": "SUN", "placement": [2]},
]


@pytest.mark.parametrize("target", sorted(RULE))
def test_each_sillytavern_script_is_named_by_the_format_rule(target):
    data = {"name": "Sky", "first_mes": "hi", "extensions": {"regex_scripts": SCRIPTS}}
    _adapter, decoded, media = read(
        json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}).encode(), "Sky.json"
    )
    crossing = convert_piece(decoded.pieces[0], target, media)
    rule = RULE[target]
    lost = [loss for loss in crossing.losses if loss.code == rule.code]
    assert [(loss.pointer, loss.action) for loss in lost] == [
        ("/body/behavior_scripts/0", "dropped"),
        ("/body/behavior_scripts/1", "dropped"),
    ]
    assert "the SillyTavern regex script 'caps'" in lost[0].why and SCRIPT in lost[1].why
    assert lost[1].why.startswith(rule.why.split(SCRIPT)[0])  # the rule's own sentence, the script named in it
