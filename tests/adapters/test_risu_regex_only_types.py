"""A SillyTavern markdown-only or prompt-only rule crossing to RisuAI keeps leaving the stored chat
alone: it becomes a display (editdisplay) or request (editprocess) script, not an output script
that would rewrite every message for good."""

from __future__ import annotations

import json

import pytest
from st_side_formats_support import read_json, round_trip, st_regex_script, undeclared

SCRIPT = st_regex_script(scriptName="Hide thoughts", findRegex="/<think>[\\s\\S]*?<\\/think>/g")


def _risu_type(**changes) -> tuple[str, list[str]]:
    piece = read_json(dict(SCRIPT, **changes), "Hide thoughts.json").pieces[0]
    crossing = round_trip(piece, "risu.regex")
    assert undeclared(crossing) == []
    return json.loads(crossing.data)["data"][0]["type"], [loss.code for loss in crossing.losses]


@pytest.mark.parametrize(
    ("changes", "kind"),
    [
        ({"markdownOnly": True}, "editdisplay"),
        ({"markdownOnly": True, "placement": [1, 2]}, "editdisplay"),
        ({"promptOnly": True}, "editprocess"),
        ({"promptOnly": True, "placement": [1, 2]}, "editprocess"),
        ({}, "editoutput"),
        ({"placement": [1]}, "editinput"),
        ({"markdownOnly": True, "placement": [3]}, "editoutput"),  # a slash command is no chat message
        ({"markdownOnly": True, "promptOnly": True}, "editoutput"),  # shown and sent: no one type says it
    ],
)
def test_the_risu_type_of_a_sillytavern_rule(changes, kind):
    assert _risu_type(**changes)[0] == kind


def test_the_translation_is_declared_instead_of_a_dropped_switch():
    _, codes = _risu_type(markdownOnly=True, placement=[1, 2])
    assert codes.count("risu.regex.only_type") == 2  # at placements, and at markdown_only
    assert "risu.regex.placement" not in codes


def test_an_edited_risu_script_follows_its_new_switch():
    risu = {"type": "regex", "data": [{"comment": "c", "in": "a", "out": "b", "type": "editoutput"}]}
    piece = read_json(risu, "regexscript_export.json").pieces[0]
    rule = piece.body.rules[0].model_copy(update={"markdown_only": True})
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"rules": [rule]})})
    crossing = round_trip(edited, "risu.regex")
    assert json.loads(crossing.data)["data"][0]["type"] == "editdisplay"
    assert undeclared(crossing) == []


@pytest.mark.parametrize("kind", ["editdisplay", "editprocess"])
def test_a_risu_display_or_request_script_comes_back_from_sillytavern_as_it_was(kind):
    risu = {"type": "regex", "data": [{"comment": "c", "in": "a", "out": "b", "type": kind}]}
    piece = read_json(risu, "regexscript_export.json").pieces[0]
    st_file = round_trip(piece, "sillytavern.regex")
    back = read_json(json.loads(st_file.data), "c.json").pieces[0]
    assert json.loads(round_trip(back, "risu.regex").data)["data"][0]["type"] == kind
