"""SillyTavern regex script files read into regex sets and write back unchanged."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from st_side_formats_support import random_pieces, undeclared, read_json, round_trip, unknown_keys

from bunzai.adapters.sillytavern.regex import parse_find_regex
from bunzai.errors import BunzaiError
from bunzai.model.regex import RegexRule, RegexSet, RegexSetBody

FORMAT = "sillytavern.regex"

# As ST 1.12.6 exports a script (4-space JSON): substituteRegex a bool, minDepth NaN -> null.
OLD_SCRIPT = {
    "id": "0b7e3f52-7a4c-4f0e-9d7a-3f1c2b9d8e11",
    "scriptName": "Strip OOC",
    "findRegex": "/\\(OOC:.*?\\)/gi",
    "replaceString": "",
    "trimStrings": [],
    "placement": [2],
    "disabled": False,
    "markdownOnly": True,
    "promptOnly": False,
    "runOnEdit": True,
    "substituteRegex": False,
    "minDepth": None,
    "maxDepth": None,
}
# As newer ST writes it: substituteRegex an int, reasoning placement, minDepth -1.
NEW_SCRIPT = {
    "id": "a1b2c3d4-0000-4000-8000-000000000001",
    "scriptName": "Hide thoughts",
    "findRegex": "<think>[\\s\\S]*?</think>",
    "replaceString": "{{match}}",
    "trimStrings": ["<think>", "</think>"],
    "placement": [6, 1],
    "disabled": True,
    "markdownOnly": False,
    "promptOnly": True,
    "runOnEdit": False,
    "substituteRegex": 2,
    "minDepth": -1,
    "maxDepth": 3,
}
# Legacy placements (0 markdown display, 4 sendAs) and type drift as hand-edited files carry it.
DRIFT_SCRIPT = {
    "id": 17,
    "scriptName": "Legacy",
    "findRegex": "/name/",
    "replaceString": None,
    "trimStrings": "x",
    "placement": [0, 4, 3, 9],
    "disabled": "false",
    "markdownOnly": 1,
    "promptOnly": 0,
    "runOnEdit": "true",
    "substituteRegex": "1",
    "minDepth": "",
    "maxDepth": "4",
}


def only_piece(document, name="script.json"):
    decoded = read_json(document, name, FORMAT if document == [] else None)
    assert [piece.kind for piece in decoded.pieces] == ["regex"]
    return decoded.pieces[0], decoded


@pytest.mark.parametrize("document", [OLD_SCRIPT, NEW_SCRIPT, DRIFT_SCRIPT, [OLD_SCRIPT, NEW_SCRIPT], []])
def test_an_unedited_script_file_writes_back_json_equal(document):
    piece, _ = only_piece(document, "scripts.json")
    crossing = round_trip(piece, FORMAT)
    assert json.loads(crossing.data) == document
    assert [loss.code for loss in crossing.losses if loss.code != "regex.set.name.file_name"] == []


def test_output_is_indented_like_sillytavern_exports():
    piece, _ = only_piece(OLD_SCRIPT)
    assert round_trip(piece, FORMAT).data.decode("utf-8") == json.dumps(OLD_SCRIPT, indent=4, ensure_ascii=False)


def test_a_single_script_is_a_set_of_one_rule_named_after_it():
    piece, _ = only_piece(OLD_SCRIPT, "strip_ooc.json")
    assert (piece.id, piece.name) == ("strip-ooc", "Strip OOC")
    rule = piece.body.rules[0]
    assert (rule.pattern, rule.flags, rule.placements) == ("\\(OOC:.*?\\)", "gi", ["ai_output"])
    assert (rule.markdown_only, rule.run_on_edit, rule.substitute_macros, rule.min_depth) == (True, True, "none", None)
    assert piece.original.format == FORMAT and piece.original.document == OLD_SCRIPT


def test_a_bulk_array_is_one_set_named_after_the_file():
    piece, _ = only_piece([OLD_SCRIPT, NEW_SCRIPT], "My Scripts.json")
    assert (piece.id, piece.name) == ("my-scripts", "My Scripts")
    assert [rule.name for rule in piece.body.rules] == ["Strip OOC", "Hide thoughts"]


def test_a_bare_pattern_has_no_flags():
    piece, _ = only_piece(NEW_SCRIPT)
    rule = piece.body.rules[0]
    assert (rule.pattern, rule.flags) == ("<think>[\\s\\S]*?</think>", "")
    assert (rule.substitute_macros, rule.min_depth, rule.max_depth) == ("escaped", -1, 3)
    assert rule.placements == ["reasoning", "user_input"]


def test_legacy_placements_and_type_drift_are_normalised():
    decoded = read_json(DRIFT_SCRIPT, "legacy.json")
    rule = decoded.pieces[0].body.rules[0]
    assert rule.placements == ["display", "slash_command"]  # 4 (sendAs) is 3; 9 is unknown
    assert any("placement 9" in warning for warning in decoded.warnings)
    assert (rule.id, rule.replacement, rule.trim_strings) == ("17", "", ["x"])
    assert (rule.disabled, rule.markdown_only, rule.prompt_only, rule.run_on_edit) == (False, True, False, True)
    assert (rule.substitute_macros, rule.min_depth, rule.max_depth) == ("raw", None, 4)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/a/b/gi", ("a/b", "gi")),
        ("abc", ("abc", "")),
        ("/abc", ("/abc", "")),
        ("abc/g", ("abc/g", "")),
        ("/x/y", ("/x/y", "")),  # y is not a flag ST lets through: the whole string is the pattern
        ("/a/gg", ("/a/gg", "")),
        ("/a/", ("a", "")),
        ("", ("", "")),
    ],
)
def test_find_regex_is_parsed_as_sillytavern_parses_it(text, expected):
    assert parse_find_regex(text)[:2] == expected


def test_an_edited_rule_rewrites_only_what_changed():
    piece, _ = only_piece(dict(OLD_SCRIPT, x_tool={"keep": True}))
    rule = piece.body.rules[0].model_copy(update={"pattern": "\\[OOC\\]", "flags": "g", "placements": ["user_input"]})
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"rules": [rule]})})
    crossing = round_trip(edited, FORMAT)
    written = json.loads(crossing.data)
    assert written == dict(OLD_SCRIPT, findRegex="/\\[OOC\\]/g", placement=[1], x_tool={"keep": True})
    assert crossing.losses == []


def test_a_new_set_declares_what_sillytavern_cannot_hold():
    rules = [RegexRule(pattern="a\nb", flags="gy", placements=["ai_output", "request"], extensions={"x": 1})]
    piece = RegexSet(id="fresh", name="Fresh", body=RegexSetBody(description="d", rules=rules, extensions={"y": 2}))
    crossing = round_trip(piece, FORMAT)
    codes = {loss.code for loss in crossing.losses}
    assert codes >= {
        "regex.rule.id.generated",
        "regex.rule.name.filled",
        "regex.rule.flags.dropped",
        "regex.rule.pattern.line_breaks",
        "regex.rule.placement.unsupported",
        "regex.rule.extensions.dropped",
        "regex.set.description.dropped",
        "regex.set.extensions.dropped",
    }
    assert "crossing.not_carried" not in codes
    written = json.loads(crossing.data)
    assert written["findRegex"] == "/a\\nb/g" and written["placement"] == [2] and written["scriptName"] == "Fresh"
    assert written == json.loads(round_trip(piece, FORMAT).data)  # the made-up id is stable


def test_several_new_rules_write_a_bulk_array():
    rules = [RegexRule(id="r1", name="One", pattern="a"), RegexRule(id="r2", name="Two", pattern="b", flags="g")]
    crossing = round_trip(RegexSet(id="two", name="Two rules", body=RegexSetBody(rules=rules)), FORMAT)
    written = json.loads(crossing.data)
    assert [script["findRegex"] for script in written] == ["/a/", "/b/g"]
    # SillyTavern names a set of several scripts by its file, which is named after the set
    assert (crossing.file_name, crossing.losses) == ("Two rules.json", [])


@pytest.mark.parametrize("document", [[OLD_SCRIPT, 3], [OLD_SCRIPT, "x"]])
def test_a_bulk_array_of_non_scripts_is_refused(document):
    from bunzai.adapters.registry import get_adapter

    with pytest.raises(BunzaiError) as caught:
        get_adapter(FORMAT).read(json.dumps(document).encode(), "bad.json", document)
    assert caught.value.code == "invalid_input"


def test_broken_json_is_a_coded_error():
    from bunzai.adapters.inspect import read_bytes

    with pytest.raises(BunzaiError) as caught:
        read_bytes(b'{"findRegex": "/a/g", ', "broken.json", FORMAT)
    assert caught.value.code == "invalid_json"


@settings(max_examples=60, deadline=None)
@given(root=unknown_keys, second=unknown_keys, as_array=st.booleans())
def test_unknown_keys_in_scripts_survive_a_round_trip(root, second, as_array):
    first = dict(copy.deepcopy(OLD_SCRIPT), **root)
    document = [first, dict(copy.deepcopy(NEW_SCRIPT), **second)] if as_array else first
    piece, _ = only_piece(document, "keys.json")
    assert json.loads(round_trip(piece, FORMAT).data) == document


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_canonical_regex_set_crossing_in_declares_every_loss(data):
    piece = data.draw(random_pieces("regex"))
    assert undeclared(round_trip(piece, FORMAT)) == []
