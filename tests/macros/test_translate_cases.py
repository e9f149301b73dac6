"""Translation, table-driven: real cases across the six engines and every verdict.

Each row: source engine, target engine, text, the verdicts in order, the translated text.
The expectations follow from the catalogs alone (reference/macros.md §6-7 says why each is right).
"""

from __future__ import annotations

import pytest

from bunzai.macros.catalog import all_catalogs
from bunzai.macros.translate import translate_text

CASES = [
    ("rolecall", "sillytavern", "{{random::1::10}}", ["collision"], "{{random::1::10}}"),
    (
        "sillytavern",
        "marinara",
        "{{#if description}}About: {{description}}{{else}}none{{/if}}",
        ["flatten", "portable"],
        "{{// bunzai: dropped #if description; kept its first branch}}About: {{description}}",
    ),
    ("risuai", "sillytavern", "{{setdefaultvar::x::v}}", ["portable"], "{{.x ||= v}}"),
    ("risuai", "lumiverse", "{{setdefaultvar::x::v}}", ["absent"], ""),
    ("sillytavern", "lumiverse", "{{setvar::mood::calm}}", ["portable"], "{{setchatvar::mood::calm}}"),
    ("sillytavern", "lumiverse", "{{getvar::mood}}", ["portable"], "{{getchatvar::mood}}"),
    ("sillytavern", "agnai", "{{// note}}Hi", ["absent"], "Hi"),
    ("sillytavern", "lumiverse", "{{random::1::10}}", ["portable"], "{{pick::1::10}}"),
    ("sillytavern", "lumiverse", "{{roll::6}}", ["portable"], "{{roll::1d6}}"),
    ("sillytavern", "risuai", "{{time::UTC+2}}", ["collision"], "{{time::UTC+2}}"),
    ("sillytavern", "marinara", "{{setvar::x::1}}", ["collision"], "{{setvar::x::1}}"),
    ("sillytavern", "lumiverse", "{{original}}", ["collision"], "{{original}}"),
    ("sillytavern", "marinara", "{{original}}", ["absent"], "{{original}}"),
    ("sillytavern", "agnai", "{{original}}", ["portable"], "{{original}}"),
    ("sillytavern", "lumiverse", "{{input}}", ["portable"], "{{userInput}}"),
    ("lumiverse", "sillytavern", "{{input}}", ["portable"], "{{lastUserMessage}}"),
    ("marinara", "sillytavern", "{{input}}", ["portable"], "{{lastUserMessage}}"),
    ("agnai", "sillytavern", "{{persona}}", ["portable"], "{{personality}}"),
    ("sillytavern", "agnai", "{{persona}}", ["portable"], "{{impersonating}}"),
    ("rolecall", "sillytavern", "{{group}}", ["collision"], "{{group}}"),
    ("sillytavern", "rolecall", "{{group}}", ["collision"], "{{group}}"),
    ("sillytavern", "lumiverse", "{{isotime}}", ["portable"], "{{time}}"),
    ("marinara", "sillytavern", "{{random:1:10}}", ["collision"], "{{random:1:10}}"),
    ("sillytavern", "agnai", "{{random::a::b}}", ["portable"], "{{random: a, b}}"),
    ("agnai", "sillytavern", "{{random: a, b, c}}", ["portable"], "{{random::a::b::c}}"),
    (
        "sillytavern",
        "risuai",
        "{{if description}}x{{else}}y{{/if}}",
        ["portable"],
        # SillyTavern's truth spelled out (RisuAI's #when counts only 1 and true): not empty, off, false, 0
        "{{#when {{all::{{notequal::{{description}}::}}"
        + "".join(
            f"::{{{{notequal::{{{{lower::{{{{trim::{{{{description}}}}}}}}}}}}::{w}}}}}" for w in ("off", "false", "0")
        )
        + "}}}}x\n{{:else}}\ny{{/when}}",  # RisuAI finds {{:else}} in a body of several lines only on its own line
    ),
    ("sillytavern", "risuai", "{{if !yes}}x{{/if}}", ["portable"], "{{#when 0}}x{{/when}}"),
    ("risuai", "sillytavern", "{{#if yes}}x{{/if}}", ["portable"], "{{if 0}}x{{/if}}"),
    (
        "risuai",
        "sillytavern",
        "{{#when::not::{{getvar::x}}}}x{{/when}}",
        ["portable", "portable"],
        "{{if !{{getvar::x}}}}x{{/if}}",
    ),
    (
        "risuai",
        "sillytavern",
        "{{#when {{getvar::x}}}}yes{{:else}}no{{/when}}",
        ["portable", "portable"],
        "{{if {{getvar::x}}}}yes{{else}}no{{/if}}",
    ),
    (
        "sillytavern",
        "agnai",
        "{{if scenario}}x{{else}}y{{/if}}",
        ["portable"],
        "{{#if scenario}}x{{#else}}y{{/else}}{{/if}}",
    ),
    # Agnai's #if tests a placeholder by name, and Agnai has no description placeholder.
    ("sillytavern", "agnai", "{{if description}}x{{else}}y{{/if}}", ["flatten"], "x"),
    (
        "agnai",
        "sillytavern",
        "{{#if scenario}}S{{#else}}N{{/else}}{{/if}}",
        ["portable"],
        "{{if scenario}}S{{else}}N{{/if}}",
    ),
    (
        "agnai",
        "marinara",
        "{{#insert 3}}note{{/insert}}",
        ["flatten"],
        "{{// bunzai: dropped #insert 3; kept its body}}note",
    ),
    (
        "agnai",
        "lumiverse",
        "{{#lowpriority}}extra{{/lowpriority}}",
        ["flatten"],
        "{{// bunzai: dropped #lowpriority; kept its body}}extra",
    ),
    (
        "risuai",
        "lumiverse",
        "{{#each {{getvar::list}} as x}}{{slot::x}}{{/each}}",
        ["portable", "flatten", "absent"],
        "{{// bunzai: dropped #each getvar::list as x; kept its body}}",
    ),
    ("risuai", "sillytavern", "{{hash::abc}}", ["absent"], ""),
    ("risuai", "sillytavern", "{{randint::1::6}}", ["absent"], ""),
    ("risuai", "lumiverse", "{{randint::1::6}}", ["portable"], "{{random::1::6}}"),
    ("risuai", "lumiverse", "{{replace::hello::l::L}}", ["portable"], "{{replace::l::L::hello}}"),
    ("lumiverse", "risuai", "{{replace::l::L::hello}}", ["portable"], "{{replace::hello::l::L}}"),
    ("lumiverse", "sillytavern", "{{setchatvar::x::1}}", ["portable"], "{{setvar::x::1}}"),
    ("lumiverse", "sillytavern", "{{@x = 1}}", ["portable"], "{{.x = 1}}"),
    ("lumiverse", "sillytavern", "{{.x = 1}}", ["collision"], "{{.x = 1}}"),
    ("sillytavern", "lumiverse", "{{.x += 2}}", ["portable"], "{{@x += 2}}"),
    ("sillytavern", "sillytavern-legacy", "{{.x}}", ["portable"], "{{getvar::x}}"),
    (
        "sillytavern",
        "sillytavern-legacy",
        "{{if x}}a{{/if}}",
        ["flatten"],
        "{{// bunzai: dropped if x; kept its first branch}}a",
    ),
    ("sillytavern", "risuai", "{{// note}}", ["absent"], ""),
    ("sillytavern", "lumiverse", "{{!char}} {{~user}}", ["portable", "portable"], "{{!char}} {{~user}}"),
    ("sillytavern", "marinara", "{{unknownmacro::x}}", ["unknown"], "{{unknownmacro::x}}"),
    (
        "sillytavern",
        "risuai",
        "{{description}} {{charDescription}}",
        ["portable", "portable"],
        "{{description}} {{description}}",
    ),
    ("risuai", "sillytavern", "{{hidden_key::k}}", ["absent"], ""),
    ("risuai", "sillytavern", "{{Previous_User_Chat}}", ["portable"], "{{lastUserMessage}}"),
    ("marinara", "lumiverse", "{{roll:2d6}}", ["portable"], "{{roll::2d6}}"),
    ("sillytavern", "marinara", "{{roll::2d6}}", ["portable"], "{{roll:2d6}}"),
    ("lumiverse", "marinara", "{{lumiaDef}}", ["absent"], ""),
    ("rolecall", "lumiverse", "{{they}}", ["absent"], ""),
    # Lumiverse's inline {{if::c}} is a truth test, but its block form says SillyTavern's inline if
    ("sillytavern", "lumiverse", "{{if c::text}}", ["portable"], "{{if::1}}text{{/if}}"),  # judged now: c is no macro
    ("sillytavern", "risuai", "{{setvar::x::{{char}}}}", ["portable", "portable"], "{{setvar::x::{{char}}}}"),
    ("sillytavern", "lumiverse", "{{trim}}", ["collision"], "{{trim}}"),
    ("marinara", "lumiverse", "{{isotime}}", ["portable"], "{{isotime}}"),
    (
        "marinara",
        "sillytavern",
        "{{uppercase}}shout{{/uppercase}}",
        ["flatten"],
        "{{// bunzai: dropped uppercase; kept its body}}shout",
    ),
]


@pytest.mark.parametrize(("source", "target", "text", "verdicts", "out"), CASES)
def test_translation_case(source: str, target: str, text: str, verdicts: list[str], out: str) -> None:
    result = translate_text(text, source, target)
    assert result.checked
    assert [v["verdict"] for v in result.verdicts] == verdicts
    assert result.text == out


def test_the_table_spans_every_engine_and_verdict() -> None:
    assert len(CASES) >= 40
    engines = {c[0] for c in CASES} | {c[1] for c in CASES}
    assert {"sillytavern", "rolecall", "lumiverse", "marinara", "risuai", "agnai"} <= engines
    assert {"portable", "collision", "absent", "flatten", "unknown"} <= {v for c in CASES for v in c[3]}


def test_rolecall_random_range_collides_with_sillytavern_pick() -> None:
    verdict = translate_text("{{random::1::10}}", "rolecall", "sillytavern").verdicts[0]
    assert (verdict["verdict"], verdict["op"], verdict["target_op"]) == ("collision", "random.range", "random.pick")


def test_a_flattened_block_leaves_a_brace_free_comment() -> None:
    result = translate_text("{{#if description}}A{{else}}B{{/if}}", "sillytavern", "marinara")
    comment = result.verdicts[0]["comment"]
    assert comment.startswith("{{//") and "{" not in comment[2:-2] and "}" not in comment[2:-2]
    assert result.text == comment + "A"


def test_a_comment_into_agnai_is_dropped_and_reported() -> None:
    result = translate_text("{{// note}}Hi", "sillytavern", "agnai")
    assert result.text == "Hi" and result.verdicts[0]["verdict"] == "absent" and result.verdicts[0]["op"] == "comment"


def test_setvar_into_lumiverse_keeps_per_chat_scope() -> None:
    verdict = translate_text("{{setvar::x::1}}", "sillytavern", "lumiverse").verdicts[0]
    assert verdict["to"] == "{{setchatvar::x::1}}" and "tvar.set" in verdict["note"]


def test_original_survives_every_target() -> None:
    for target in all_catalogs():
        assert "{{original}}" in translate_text("x {{original}} y", "sillytavern", target).text, target


def test_flag_prefixed_tokens_are_read_by_their_name() -> None:
    result = translate_text("{{!char}} {{~user}} {{#if x}}a{{/if}}", "sillytavern", "lumiverse")
    assert [v["verdict"] for v in result.verdicts] == ["portable", "portable", "portable"]


def test_an_unmodelled_engine_is_unchecked_never_clean() -> None:
    result = translate_text("{{char}}", "sillytavern", "fast-tavern")
    assert result.checked is False and result.text == "{{char}}" and result.reason


def test_every_direction_between_catalogs_answers() -> None:
    sample = "{{char}} {{user}} {{random::a::b}} {{getvar::x}}"
    for source in all_catalogs():
        for target in all_catalogs():
            result = translate_text(sample, source, target)
            assert result.checked and len(result.verdicts) == 4, (source, target)


def test_same_engine_translation_changes_nothing() -> None:
    text = "{{char}} {{random::a::b}} {{setvar::x::1}} {{if x}}a{{else}}b{{/if}} {{.x ||= 2}}"
    result = translate_text(text, "sillytavern", "sillytavern")
    assert result.text == text and {v["verdict"] for v in result.verdicts} == {"portable"}


def test_rolecall_random_without_arguments_is_zero_to_a_hundred_like_marinaras() -> None:
    result = translate_text("{{random}}", "rolecall", "marinara")
    assert result.verdicts[0]["verdict"] == "portable" and result.text == "{{random}}"
    for target in ("sillytavern", "lumiverse", "risuai"):  # their argument-less random is another range
        assert translate_text("{{random}}", "rolecall", target).verdicts[0]["verdict"] != "portable", target


def test_rolecall_random_with_three_arguments_is_a_pick() -> None:
    result = translate_text("{{random::a::b::c}}", "rolecall", "sillytavern")
    assert result.verdicts[0]["op"] == "random.pick" and result.verdicts[0]["verdict"] == "portable"
    assert translate_text("{{random::1::100}}", "rolecall", "sillytavern").verdicts[0]["op"] == "random.range"
    assert translate_text("{{random::a::b}}", "rolecall", "sillytavern").verdicts[0]["verdict"] == "unknown"


@pytest.mark.parametrize("flag", ["!", "?", "~", ">", "#"])
def test_every_macro_2_flag_prefix_is_read_by_name_by_the_translator_and_the_evaluator(flag) -> None:
    from bunzai.render.macro_eval import MacroContext, MacroEvaluator

    text = "{{" + flag + "user}} {{" + flag + "if 1}}yes{{/if}} {{ " + flag + " char }}"
    for target in ("sillytavern", "lumiverse", "marinara"):
        verdicts = translate_text(text, "sillytavern", target).verdicts
        assert "unknown" not in {v["verdict"] for v in verdicts}, (flag, target)
    evaluated = MacroEvaluator(MacroContext(), "sillytavern").evaluate(text, "/x")
    assert evaluated.problems == [] and "yes" in evaluated.text and "{{" not in evaluated.text
