"""Agnai's block keywords take their argument after WS (`" "*`), which may be nothing, and
`#insert` takes an `=` there too and a depth of one or two digits (common/grammar.ts at agnai
2421510e: `"#each" WS loop:Bots`, `"#if" WS value:Word`, `"#insert"i WS "="? WS [0-9]|1..2|`).
An opener that is none of the grammar's blocks is text, and its closer ends no block it crosses.
Each reading was checked by compiling that grammar with peggy 3 and parsing the case."""

from __future__ import annotations

import pytest

from bunzai.macros.lookup import macro_lookup
from bunzai.macros.translate import translate_text


def _ops(text: str) -> list[tuple[str, str | None]]:
    return [(v["token"], v["op"]) for v in translate_text(text, "agnai", "sillytavern").verdicts]


@pytest.mark.parametrize(
    "opener",
    # peggy: [history-insert N ["x"]] for each
    ["{{#insert=1}}", "{{#insert = 1}}", "{{#insert1}}", "{{#INSERT=2}}", "{{#insert  =  07 }}", "{{ #insert=3 }}"],
)
def test_an_insert_takes_its_depth_after_an_equals_sign_or_no_space(opener: str) -> None:
    assert _ops(opener + "x{{/insert}}") == [(opener, "block.insert_at_depth")]


@pytest.mark.parametrize(
    ("opener", "loop", "field"),
    [
        # peggy: [each bots [bot-prop name]], [each history [history-prop name]]
        ("{{#eachbot}}", "loop.each_char", "x.agnai.each_bot_name"),
        ("{{#eachbots}}", "loop.each_char", "x.agnai.each_bot_name"),
        ("{{#eachmsg}}", "loop.each_history", "x.agnai.each_msg_name"),
    ],
)
def test_a_loop_takes_what_it_loops_over_with_no_space(opener: str, loop: str, field: str) -> None:
    assert _ops(opener + "{{.name}}{{/each}}") == [(opener, loop), ("{{.name}}", field)]


def test_a_condition_takes_its_placeholder_with_no_space() -> None:
    # peggy: [if scenario ["a"]]
    out = translate_text("{{#ifscenario}}a{{/if}}", "agnai", "sillytavern")
    assert [v["op"] for v in out.verdicts] == ["cond.if"]
    assert out.text == "{{if scenario}}a{{/if}}"
    # peggy: [each history [history-if isuser ["u"]]]
    assert _ops("{{#eachmsg}}{{#if.isuser}}u{{/if}}{{/each}}") == [
        ("{{#eachmsg}}", "loop.each_history"),
        ("{{#if.isuser}}", "cond.if"),
    ]


@pytest.mark.parametrize(
    ("opener", "word"),
    [
        # peggy: [if "scenario " ["a"]], [if "sce nario" ...], [if "scenario.x" ...], [if "char | upper" ...]
        ("{{#if scenario }}", "scenario "),
        ("{{#ifscenario  }}", "scenario  "),
        ("{{#if sce nario}}", "sce nario"),
        ("{{#if scenario.x}}", "scenario.x"),
        ("{{#if char | upper}}", "char | upper"),
        ("{{#if #insert}}", "#insert"),  # a block's name is no macro getPlaceholder has a case for
        # getPlaceholder's value case gives the condition's text, which renderCondition never passes
        ("{{#if value}}", "value"),
    ],
)
def test_a_condition_tests_its_word_as_written_so_one_with_spaces_or_symbols_is_always_false(
    opener: str, word: str
) -> None:
    # template-parser.ts getPlaceholder switches on the word itself: "scenario " is no placeholder.
    out = translate_text(opener + "a{{else}}b{{/if}}", "agnai", "sillytavern")
    assert out.text == "{{if 0}}a{{else}}b{{/if}}"
    assert word in out.verdicts[0]["note"]
    assert translate_text(opener + "a{{/if}}", "agnai", "risuai").text == "{{#when 0}}a{{/when}}"


@pytest.mark.parametrize("opener", ["{{#if json.mood}}", "{{#if json.mood }}", "{{#if roll}}", "{{#if random}}"])
def test_a_condition_on_a_json_value_or_a_macro_of_arguments_is_flattened_not_judged_false(opener: str) -> None:
    # template-parser.ts getPlaceholder: a word starting `json.` is the chat's JSON value of that
    # name; its `roll` case gives "NaN" on a condition (shown), its `random` case throws
    out = translate_text(opener + "a{{/if}}", "agnai", "sillytavern")
    assert [v["verdict"] for v in out.verdicts] == ["flatten"] and "0" not in out.text


def test_the_spaces_before_a_conditions_word_are_the_keywords() -> None:
    # peggy: [if "scenario" ["a"]]: WS takes every space before the Word
    assert translate_text("{{#if   scenario}}a{{/if}}", "agnai", "sillytavern").text == "{{if scenario}}a{{/if}}"


@pytest.mark.parametrize(
    "text",
    [
        # peggy: the whole text, or the opener and closer as text around the placeholder
        "{{#insert x}}{{char}}{{/insert}}",
        "{{#insert 100}}{{char}}{{/insert}}",
        "{{#insert -1}}{{char}}{{/insert}}",
        "{{#insert 1 2}}{{char}}{{/insert}}",
        "{{#insert =}}{{char}}{{/insert}}",
        "{{#insert=}}{{char}}{{/insert}}",
        "{{#insertx}}{{char}}{{/insert}}",
        "{{#IFscenario}}{{char}}{{/if}}",
        "{{#Eachbot}}{{char}}{{/each}}",
    ],
)
def test_a_keyword_with_an_argument_the_grammar_refuses_is_text(text: str) -> None:
    out = translate_text(text, "agnai", "sillytavern")
    assert [(v["verdict"], v["op"]) for v in out.verdicts] == [("unknown", None), ("portable", "char.name")]
    assert out.text == text


@pytest.mark.parametrize(
    "opener",
    # peggy: ["{{#insert x}}", if scenario ["a{{/insert}}b"]] and so on
    ["{{#insert x}}", "{{#insert}}", "{{#lowpriority x}}", "{{#if}}"],
)
def test_the_closer_of_an_opener_read_as_text_ends_no_block_it_crosses(opener: str) -> None:
    closer = "{{/" + opener[3:].split()[0].split("}")[0] + "}}"
    text = opener + "{{#if scenario}}a" + closer + "b{{/if}}"
    out = translate_text(text, "agnai", "sillytavern")
    assert [(v["token"], v["op"]) for v in out.verdicts] == [(opener, None), ("{{#if scenario}}", "cond.if")]
    assert out.text == opener + "{{if scenario}}a" + closer + "b{{/if}}"


def test_lookup_judges_an_opener_as_written_with_its_closer() -> None:
    [row] = macro_lookup("#insert=1", "agnai", "sillytavern")["items"]
    assert [form["form"] for form in row["forms"]] == ["{{#insert 4}}"]
    assert row["on"]["forms"][0]["verdict"] == "flatten"
    assert row["on"]["as_written"]["verdict"] == "flatten"
    [row] = macro_lookup("#insert 100", "agnai", "sillytavern")["items"]
    assert row["on"]["as_written"]["verdict"] == "unknown"
