"""Lumiverse's space-separated arguments, as its lexer reads them (prolix-oc/Lumiverse 1.1.0,
src/macros/MacroLexer.ts, lexSpaceDelimitedArgs and lexSpaceArg): after the name, words are
separated by runs of space and tab only, so a newline, a no-break space or U+001C stays inside
its word; a nested `{{...}}` is one piece of a word; a `::` ends the words and a single `:`
starting a word ends them too, the rest split on `::` (lexArgument stops there). Checked by
running that lexer under node on each case below."""

from __future__ import annotations

import pytest

from bunzai.macros.catalog import catalog_for
from bunzai.macros.syntax import parse_token
from bunzai.macros.translate import translate_text

CASES = [
    ("{{random a b c}}", ["a", "b", "c"]),
    ("{{random\ta\t\tb }}", ["a", "b"]),
    ("{{random a\u00a0b c}}", ["a\u00a0b", "c"]),
    ("{{random a\x1cb c}}", ["a\x1cb", "c"]),
    ("{{random a\nb c}}", ["a\nb", "c"]),
    ("{{random a\u3000b}}", ["a\u3000b"]),
    ("{{random {{getvar x}} b}}", ["{{getvar x}}", "b"]),
    ("{{random x{{getvar y z}}w b}}", ["x{{getvar y z}}w", "b"]),
    ("{{random a b::c}}", ["a", "b", "c"]),
    ("{{random a :b::c}}", ["a", "b", "c"]),
]


@pytest.mark.parametrize(("raw", "args"), CASES)
def test_words_are_split_on_space_and_tab_only(raw: str, args: list[str]) -> None:
    token = parse_token(raw, 0, catalog_for("lumiverse").syntax)
    assert (token.name, token.args) == ("random", args)


def test_a_newline_inside_a_word_crosses_as_one_item() -> None:
    assert translate_text("{{random a\nb c}}", "lumiverse", "sillytavern").text == "{{random::a\nb::c}}"


def test_a_nested_macro_is_one_argument() -> None:
    out = translate_text("{{random {{ user }} b}}", "lumiverse", "sillytavern")
    assert out.text == "{{random::{{user}}::b}}"
    assert {v["verdict"] for v in out.verdicts} == {"portable"}


@pytest.mark.parametrize(
    ("raw", "args"),
    [("{{random:a::b}}", ["a", "b"]), ("{{random:1:10}}", ["1:10"]), ("{{setvar:x::5}}", ["x", "5"])],
)
def test_after_a_single_colon_a_double_colon_still_parts_arguments(raw: str, args: list[str]) -> None:
    # lexArgument, which reads the argument after a single `:` too, stops at `::`
    token = parse_token(raw, 0, catalog_for("lumiverse").syntax)
    assert token.args == args


def test_a_single_colon_setvar_crosses() -> None:
    out = translate_text("{{setvar:x::5}}", "lumiverse", "sillytavern")
    assert [v["op"] for v in out.verdicts] == ["tvar.set"]


@pytest.mark.parametrize("written", ["{{\nchar}}", "{{\u00a0char}}", "{{\u2028char}}", "{{!\nchar}}"])
def test_only_space_and_tab_come_before_the_name(written: str) -> None:
    # lexMacroContent skips only " " and "\t" before flags and name; at any other whitespace the
    # identifier is empty and the macro, named "", is printed back
    out = translate_text(written, "lumiverse", "sillytavern")
    assert out.text == written
    assert [v["verdict"] for v in out.verdicts] == ["unknown"]


@pytest.mark.parametrize("written", ["{{\tchar}}", "{{ \t char}}"])
def test_space_and_tab_before_the_name_are_skipped(written: str) -> None:
    assert translate_text(written, "lumiverse", "sillytavern").text == "{{char}}"


@pytest.mark.parametrize(
    "text",
    [
        "{{if @alive}}yes{{/if}}",  # the space form's @name is the chat variable; {{if::@alive}} is the text
        "{{if !@alive}}a{{else}}b{{/if}}",
        "{{if .mood}}a{{/if}}",
        "{{if\t@alive}}a{{/if}}",  # a tab separates as a space does
        "{{#if @alive}}a{{/if}}",  # flags before the name
        "{{~ if @alive}}a{{/if}}",
        "{{if::@alive}}a{{/if}}",  # the text "@alive", always true: kept so
        "{{if::{{char}}}}a{{/if}}",
    ],
)
def test_an_if_into_lumiverse_keeps_the_form_it_was_written_in(text: str) -> None:
    result = translate_text(text, "lumiverse", "lumiverse")
    assert result.text == text
    assert {v["verdict"] for v in result.verdicts} <= {"portable"}


def test_an_elseif_into_lumiverse_keeps_its_condition_not_written_as_an_else() -> None:
    # into its own engine the elseif reads as it did, space form and all (it was flattened)
    result = translate_text("{{if @x}}a{{elseif @y}}b{{else}}c{{/if}}", "lumiverse", "lumiverse")
    assert result.text == "{{if @x}}a{{elseif @y}}b{{else}}c{{/if}}"
    assert [v["verdict"] for v in result.verdicts] == ["portable"]


def test_an_unless_into_lumiverse_keeps_its_space_form() -> None:
    assert translate_text("{{unless @x}}a{{/unless}}", "lumiverse", "lumiverse").text == "{{unless @x}}a{{/unless}}"


def test_a_flattened_elseif_says_why() -> None:
    result = translate_text("{{if::{{char}}}}a{{elseif::{{user}}}}b{{/if}}", "lumiverse", "sillytavern")
    flattened = [v["note"].split(";")[0] for v in result.verdicts if v["verdict"] == "flatten"]
    assert flattened == ["sillytavern has no elseif"]
