"""RisuAI regex exports: flag tokens, explicit type mapping, round trips, unknown keys."""

from __future__ import annotations

import json

import pytest
from cards_support import read
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.convert import convert_piece

SCRIPTS = [
    {
        "comment": "hide thoughts",
        "in": "<think>[\\s\\S]*?</think>",
        "out": "",
        "type": "editdisplay",
        "flag": "<order 5>gi<cbs>",
        "ableFlag": True,
    },
    {
        "comment": "emotes",
        "in": "\\*(.+?)\\*",
        "out": "<i>$1</i>",
        "type": "editoutput",
        "flag": "g<move_top,no_end_nl>",
        "ableFlag": True,
    },
    {"comment": "off", "in": "a", "out": "b", "type": "disabled"},
    {"comment": "ignored flag", "in": "x", "out": "y", "type": "editinput", "flag": "i", "ableFlag": False},
    {"comment": "only tokens", "in": "z", "out": "w", "type": "edittrans", "flag": "<order 1>", "ableFlag": True},
    {"comment": "request", "in": "q", "out": "r", "type": "editprocess"},
]


def export(scripts=None) -> bytes:
    return json.dumps({"type": "regex", "data": scripts or SCRIPTS}).encode()


def test_flags_lose_their_tokens_and_types_map_to_placements():
    adapter, decoded, _media = read(export(), "regexscript_export.json")
    assert adapter.format_id == "risu.regex"
    think, emotes, off, ignored, tokens, request = decoded.pieces[0].body.rules
    assert (think.flags, think.substitute_macros, think.placements) == ("gi", "raw", ["display"])
    assert think.extensions["risuai"]["flag_tokens"] == ["order 5"]
    assert emotes.extensions["risuai"]["flag_tokens"] == ["move_top", "no_end_nl"]
    assert (off.disabled, off.placements) == (True, [])
    assert (ignored.flags, ignored.placements) == ("g", ["user_input"])  # ableFlag false: RisuAI uses g
    # only tokens: RisuAI strips them and compiles `flag || 'g'` (src/ts/process/scripts.ts)
    assert (tokens.flags, tokens.placements) == ("g", ["translation"])
    assert request.placements == ["request"]


def test_a_same_format_round_trip_is_json_equal():
    _adapter, decoded, media = read(export(), "regexscript_export.json")
    crossing = convert_piece(decoded.pieces[0], "risu.regex", media)
    assert json.loads(crossing.data) == json.loads(export())
    assert all(loss.code == "risu.name.file_name" for loss in crossing.losses)


@pytest.mark.parametrize(
    ("flag", "flags"), [("<cbs>", "g"), ("<order 5>", "g"), ("q<cbs>", "u"), (" ", "u"), ("", "g")]
)
def test_flags_compile_as_risu_compiles_them(flag, flags):
    script = {"comment": "c", "in": "a", "out": "b", "type": "editoutput", "flag": flag, "ableFlag": True}
    _adapter, decoded, _media = read(export([script]), "regexscript_export.json")
    assert decoded.pieces[0].body.rules[0].flags == flags


def test_only_tokens_cross_to_sillytavern_as_a_global_rule():
    script = {"comment": "c", "in": "a", "out": "b", "type": "editoutput", "flag": "<order 5>", "ableFlag": True}
    _adapter, decoded, media = read(export([script]), "regexscript_export.json")
    written = json.loads(convert_piece(decoded.pieces[0], "sillytavern.regex", media).data)
    assert written["findRegex"] == "/a/g"


def test_changing_flags_keeps_the_tokens():
    _adapter, decoded, media = read(export(), "regexscript_export.json")
    piece = decoded.pieces[0]
    rules = [piece.body.rules[0].model_copy(update={"flags": "g"})] + piece.body.rules[1:]
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"rules": rules})})
    written = json.loads(convert_piece(piece, "risu.regex", media).data)["data"][0]
    assert written["flag"] == "g<cbs><order 5>" and written["ableFlag"] is True


@pytest.mark.parametrize(
    ("placements", "kind"),
    [
        (["user_input"], "editinput"),
        (["ai_output"], "editoutput"),
        (["request"], "editprocess"),
        (["display"], "editdisplay"),
        (["translation"], "edittrans"),
    ],
)
def test_each_placement_writes_its_risu_type(placements, kind):
    from bunzai.model.regex import RegexSet

    piece = RegexSet(
        id="r", name="r", body={"rules": [{"name": "n", "pattern": "a", "flags": "g", "placements": placements}]}
    )
    crossing = convert_piece(piece, "risu.regex", lambda ref: b"")
    assert json.loads(crossing.data)["data"][0]["type"] == kind
    assert crossing.losses == []


def test_a_sillytavern_style_rule_reports_what_risu_cannot_hold():
    from bunzai.model.regex import RegexSet

    piece = RegexSet(
        id="r",
        name="Rules",
        body={
            "rules": [
                {
                    "id": "u1",
                    "name": "n",
                    "pattern": "a",
                    "flags": "",
                    "placements": ["user_input", "ai_output"],
                    "trim_strings": ["x"],
                    "min_depth": 1,
                    "substitute_macros": "escaped",
                }
            ]
        },
    )
    crossing = convert_piece(piece, "risu.regex", lambda ref: b"")
    codes = {loss.code for loss in crossing.losses}
    assert {
        "risu.regex.not_carried",
        "risu.regex.placement",
        "risu.regex.flags",
        "risu.regex.cbs_raw",
    } <= codes
    assert crossing.file_name == "Rules.json" and "risu.name.file_name" not in codes  # the file carries the name
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


_KEY = st.text("abcdefghij_", min_size=1, max_size=6).map(lambda key: "x_" + key)
_VALUE = st.one_of(st.integers(-5, 5), st.text(max_size=5), st.booleans(), st.none())


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(root=st.dictionaries(_KEY, _VALUE, max_size=3), script=st.dictionaries(_KEY, _VALUE, max_size=3))
def test_unknown_keys_at_every_level_survive_a_same_format_round_trip(root, script):
    document = {"type": "regex", "data": [SCRIPTS[0] | script, SCRIPTS[2]]} | root
    _adapter, decoded, media = read(json.dumps(document).encode(), "rules.json")
    crossing = convert_piece(decoded.pieces[0], "risu.regex", media)
    assert json.loads(crossing.data) == document
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]
