"""Agnai's random list after a second colon or a space: its Random rule is
`"random"i ":"? WS DelimitedWords` (common/grammar.ts at agnai 2421510e), so the optional colon
takes one `:` right after the name and a second one begins the first item. Each reading was
checked by compiling that grammar with peggy 3.0.2 and parsing the case:
`{{random::a, b}}` holds ":a" and "b", `{{random::a::b}}` the one item ":a::b", and
`{{random :a, b}}` (no colon right after the name) ":a" and "b". Its DiceRoll rule is
`WS ":"? WS`: `{{roll : 2d6}}` is a roll."""

from __future__ import annotations

import pytest

from bunzai.macros.catalog import catalog_for
from bunzai.macros.syntax import parse_token
from bunzai.macros.translate import translate_text


@pytest.mark.parametrize(
    ("written", "items"),
    [
        ("{{random::a, b}}", [":a", "b"]),
        ("{{random::a::b}}", [":a::b"]),
        ("{{random :a, b}}", [":a", "b"]),
        ("{{random: a, b}}", ["a", "b"]),
    ],
)
def test_agnai_reads_a_colon_after_its_own_as_the_first_items(written: str, items: list[str]) -> None:
    assert parse_token(written, 0, catalog_for("agnai").syntax).args == items


def test_a_roll_still_takes_a_space_before_its_colon() -> None:
    [verdict] = translate_text("{{roll : 2d6}}", "agnai", "sillytavern").verdicts
    assert (verdict["op"], verdict["to"]) == ("dice.roll", "{{roll::2d6}}")


@pytest.mark.parametrize("target", ["sillytavern", "risuai"])
def test_a_second_colon_crosses_as_the_item_agnai_reads(target: str) -> None:
    out = translate_text("{{random::a, b}}", "agnai", target)
    [verdict] = out.verdicts
    assert out.text == "{{random:::a::b}}"  # both read `:::` as their `::` and an item ":a"
    assert verdict["verdict"] == "portable" and verdict["op"] == "random.pick"
    assert 'agnai reads {{random::a, b}} as the items [":a", "b"]' in verdict["note"]


@pytest.mark.parametrize("target", ["sillytavern", "risuai", "lumiverse", "marinara"])
def test_agnais_one_item_is_a_collision_where_the_target_splits_it(target: str) -> None:
    out = translate_text("{{random::a::b}}", "agnai", target)
    [verdict] = out.verdicts
    assert out.text == "{{random::a::b}}"
    assert verdict["verdict"] == "collision" and verdict["target_op"] == "random.pick"
    assert '["a", "b"], not [":a::b"]' in verdict["note"]


def test_a_space_before_the_colon_leaves_it_to_the_item() -> None:
    out = translate_text("{{random :a, b}}", "agnai", "sillytavern")
    assert out.text == "{{random:::a::b}}"


@pytest.mark.parametrize(("source", "written"), [("sillytavern", "{{random::a, b}}"), ("risuai", "{{random::a, b}}")])
def test_into_agnai_the_verdict_says_what_agnai_would_read_as_written(source: str, written: str) -> None:
    [verdict] = translate_text(written, source, "agnai").verdicts
    assert verdict["to"] == "{{random: a, b}}"
    assert verdict["note"].startswith('agnai reads {{random::a, b}} as random.pick with [":a", "b"]; re-spelled')


def test_an_item_with_a_colon_is_written_for_agnai_after_a_space() -> None:
    [verdict] = translate_text("{{random:::a::b}}", "sillytavern", "agnai").verdicts
    assert verdict["to"] == "{{random: :a, b}}"
    assert parse_token(verdict["to"], 0, catalog_for("agnai").syntax).args == [":a", "b"]


def test_the_command_says_so(bare_bunzai) -> None:
    args = ("macro", "translate", "--from", "agnai", "--to", "sillytavern")
    doc = bare_bunzai(*args, input="{{random::a, b}} {{random::a::b}}").json
    assert doc["text"] == "{{random:::a::b}} {{random::a::b}}"
    assert [v["verdict"] for v in doc["verdicts"]] == ["portable", "collision"]


def test_a_nested_macro_respelled_is_no_other_reading_of_the_arguments() -> None:
    found = translate_text("{{setvar::x::{{isotime}}}}", "sillytavern", "risuai").verdicts
    assert found[-1]["to"] == "{{setvar::x::{{time}}}}" and "note" not in found[-1]
