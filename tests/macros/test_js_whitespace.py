"""The engines trim with JavaScript's String.prototype.trim, so bunzai's reading of their text
trims JavaScript's whitespace (bunzai.jstext): U+FEFF goes, U+001C..U+001F and U+0085 stay.
SillyTavern: arguments (MacroCstWalker.js `.trim()`), `random`'s items (core-macros.js
`item.trim()`), its `if` truth (utils.js isFalseBoolean, `arg?.trim()`), the legacy engine's
variable names (variables.js `name.trim()`); RisuAI: a #pure body (parser.svelte.ts
blockEndMatcher, `p1.trim()`)."""

from __future__ import annotations

import pytest

from bunzai.macros.conditions import st_truthy
from bunzai.macros.translate import translate_text

KEPT = "\x1c\x1d\x1e\x1f\x85"


@pytest.mark.parametrize("char", KEPT)
def test_an_argument_keeps_what_javascript_does_not_trim(char: str) -> None:
    text = f"{{{{setvar::{char}x{char}::v}}}}"
    assert translate_text(text, "sillytavern", "risuai").text == text


def test_an_argument_loses_a_bom() -> None:
    assert translate_text("{{setvar::\ufeffx\ufeff::v}}", "sillytavern", "risuai").text == "{{setvar::x::v}}"


def test_random_items_are_trimmed_as_javascript_trims() -> None:
    out = translate_text("{{random::a\ufeff::b}} {{random::c\x1c::d}}", "sillytavern", "risuai").text
    assert out == "{{random::a::b}} {{random::c\x1c::d}}"
    # Agnai's phrases hold no U+001C (grammar.ts Phrase): that list has no spelling there
    out = translate_text("{{random::a\ufeff::b}} {{random::c\x1c::d}}", "sillytavern", "agnai")
    assert out.text == "{{random: a, b}} {{random::c\x1c::d}}"
    assert [v["verdict"] for v in out.verdicts] == ["portable", "collision"]


@pytest.mark.parametrize(("value", "truth"), [("\ufeffoff", False), ("\x1coff", True), ("\x85false", True)])
def test_sillytavern_truth_trims_as_javascript(value: str, truth: bool) -> None:
    assert st_truthy(value) is truth
    out = translate_text(f"{{{{if {value}::A}}}}", "sillytavern", "risuai").text
    assert out == "{{#when " + ("1" if truth else "0") + "}}A{{/when}}"


def test_a_pure_body_is_trimmed_as_javascript_trims() -> None:
    out = translate_text("{{#pure}}\ufeffHi\ufeff{{/pure}}|{{#pure}}\x1cHo\x1c{{/pure}}", "risuai", "sillytavern").text
    assert out.endswith("Hi|{{// bunzai: dropped #pure; kept its body as text}}\x1cHo\x1c")


def test_the_legacy_engine_is_said_to_lose_a_bom_but_not_a_separator() -> None:
    bom, sep = translate_text("{{getvar::name\ufeff}} {{getvar::nome\x1c}}", "risuai", "sillytavern-legacy").verdicts
    assert "are lost" in bom["note"] and "are lost" not in sep.get("note", "")


def test_a_name_ends_at_javascripts_whitespace() -> None:
    # SillyTavern's lexer ends an identifier at /\s+/ (MacroLexer.js EndOfIdentifier): U+FEFF ends
    # it; U+001C does not, and `{{char\x1c}}` is no macro there
    assert translate_text("{{char\ufeff}}", "sillytavern", "risuai").text == "{{char}}"
    [verdict] = translate_text("{{char\x1c}}", "sillytavern", "risuai").verdicts
    assert verdict["verdict"] == "unknown"


@pytest.mark.parametrize(
    ("args", "numeric"),
    [
        ("1::10", True),
        ("1e1::2", True),  # Number("1e1") is 10
        ("0x10::20", True),
        (".5::3", True),
        ("+2::Infinity", True),
        ("\ufeff3::4", True),  # Number() trims JavaScript's whitespace
        ("\u0661::\u0662", False),  # Arabic-Indic digits: Python's \d, not Number()'s
        ("\x1c3::4", False),
        ("1_000::2", False),  # Python's float() takes the underscore, Number() does not
        ("inf::2", False),
        ("0x::2", False),
    ],
)
def test_lumiverse_counts_as_numbers_what_number_reads(args: str, numeric: bool) -> None:
    # entropy.ts random: a range when every argument is non-blank and !isNaN(Number(a))
    [verdict] = translate_text(f"{{{{random::{args}}}}}", "lumiverse", "sillytavern").verdicts
    assert (verdict["op"] == "random.range") is numeric
