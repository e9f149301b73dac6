"""Agnai's `{{random::a::b}}`: its Random rule is `"random"i ":"? WS DelimitedWords`
(common/grammar.ts at agnai 2421510e), so the optional colon takes the first `:` and the list
starts at the second: `{{random::cafe::the}}` is the one item ":cafe::the", and
`{{random::café::thé}}`, whose `é` no Phrase holds, is no placeholder but text. Each reading
was checked by compiling that grammar with peggy 3.0.2 (Agnai's own) and parsing the case."""

from __future__ import annotations

import json

import pytest

from bunzai.macros.catalog import catalog_for
from bunzai.macros.syntax import parse_token
from bunzai.macros.translate import translate_text


def test_a_double_colon_list_agnai_cannot_read_is_text_there() -> None:
    syntax = catalog_for("agnai").syntax
    assert parse_token("{{random::café::thé}}", 0, syntax).text
    read = parse_token("{{random::cafe::the}}", 0, syntax)
    assert (read.text, read.name, read.sep) == (False, "random", "::")


@pytest.mark.parametrize("written", ["{{random::café::thé}}", "{{random:café,thé}}", "{{random::a,,b}}"])
def test_a_list_agnai_reads_as_text_is_a_collision_that_says_so(written: str) -> None:
    out = translate_text(written, "sillytavern", "agnai")
    [verdict] = out.verdicts
    assert out.text == written
    assert verdict["verdict"] == "collision" and verdict["as_text"] and "target_op" not in verdict
    assert verdict["note"].startswith("agnai reads this as text, and has no spelling of random.pick with [")


def test_from_agnai_the_same_token_is_text_not_a_random() -> None:
    [verdict] = translate_text("{{random::café::thé}}", "agnai", "sillytavern").verdicts
    assert verdict["verdict"] == "unknown"
    assert verdict["note"].endswith("and sillytavern reads it as random.pick")


def test_the_crossing_loss_says_agnai_reads_it_as_text(bare_bunzai) -> None:
    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Mira", "first_mes": "Hi"}}
    card["data"]["description"] = "She orders {{random::café::thé}}."
    (bare_bunzai.cwd / "mira.json").write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    args = ("convert", "mira.json", "--format", "sillytavern.card.json", "--to", "agnai.character.json")
    report = bare_bunzai(*args, "-o", "out.json", check=True).json
    [loss] = [loss for loss in report["losses"] if loss["code"] == "macro.collision"]
    assert loss["why"] == "{{random::café::thé}}: agnai reads this as text, not random.pick; left as written"
