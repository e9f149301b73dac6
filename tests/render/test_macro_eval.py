"""The built-in SillyTavern macro evaluator: a table of macro texts and their values,
seeded randomness, and unresolved tokens reported with where they are."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.render.macro_eval import MacroContext, MacroEvaluator


def run(text: str, **context) -> str:
    ctx = MacroContext(
        user="Ann",
        char="Sera",
        description="A healer.",
        persona="A traveller.",
        chat=[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}],
        **context,
    )
    out = MacroEvaluator(ctx).evaluate(text, "test")
    assert out.problems == [], out.problems
    return out.text


CASES = [
    ("{{user}} meets {{char}}", "Ann meets Sera"),
    ("{{CHAR}}", "Sera"),
    ("{{description}}", "A healer."),
    ("{{persona}}", "A traveller."),
    ("{{setvar::mood::calm}}{{getvar::mood}}", "calm"),
    ("{{setvar::n::2}}{{addvar::n::3}}{{getvar::n}}", "5"),
    ("{{incvar::k}}{{incvar::k}}", "12"),
    ("{{.x = 4}}{{.x}}", "4"),
    ("{{.y || none}}", "none"),
    ("{{$g = 1}}{{$g++}}", "2"),
    ("{{.a = 3}}{{.a > 2}}", "true"),
    ("{{if description}}yes{{else}}no{{/if}}", "yes"),
    ("{{if !description}}yes{{else}}no{{/if}}", "no"),
    ("{{if scenario}}yes{{else}}no{{/if}}", "no"),
    ("{{if 1::shown}}", "shown"),
    ("a{{// a note }}b", "ab"),
    ("{{reverse::abc}}", "cba"),
    ("x{{newline}}y", "x\ny"),
    ("{{space::3}}", "   "),
    ("{{noop}}", ""),
    ("{{lastMessage}}", "hello"),
    ("{{lastUserMessage}}", "hi"),
    ("{{lastMessageId}}", "1"),
    ("{{date}}", "January 1, 2025"),
    ("{{isodate}}", "2025-01-01"),
    ("{{isotime}}", "12:00"),
    ("{{time}}", "12:00 PM"),
    ("{{weekday}}", "Wednesday"),
    ("{{datetimeformat YYYY/MM/DD}}", "2025/01/01"),
    ("{{getvar::{{char}}_x}}", ""),
    ("{{setvar::{{char}}_x::7}}{{getvar::Sera_x}}", "7"),
    ("{{trim}}\n\ntext", "text"),
    ("{{random::only}}", "only"),
    ("{{roll:1d1}}", "1"),
    ("{{roll:1d1+4}}", "5"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_macro_table(text: str, expected: str) -> None:
    assert run(text) == expected


def test_unknown_macro_is_reported_where_it_is_with_a_suggestion() -> None:
    out = MacroEvaluator(MacroContext(char="Sera")).evaluate("line one\nHello {{charr}}!", "/body/prompts/0/content")
    assert out.text == "line one\nHello {{charr}}!"
    [problem] = out.problems
    assert problem["kind"] == "unknown" and problem["token"] == "{{charr}}"
    assert (problem["line"], problem["column"], problem["offset"]) == (2, 7, 15)
    assert problem["did_you_mean"][0] == "{{char}}"
    assert problem["where"] == "/body/prompts/0/content"


def test_a_stray_closer_is_unresolved() -> None:
    out = MacroEvaluator(MacroContext()).evaluate("a {{/if}} b", "x")
    assert [p["kind"] for p in out.problems] == ["unresolved"]


def evaluate(text: str, seed: int) -> str:
    return MacroEvaluator(MacroContext(seed=seed)).evaluate(text, "where").text


def test_random_and_roll_follow_the_seed() -> None:
    text = "{{random::a::b::c::d::e::f::g::h}} {{roll:1d1000000}}"
    assert evaluate(text, 3) == evaluate(text, 3)
    assert len({evaluate(text, seed) for seed in range(6)}) > 1
    rolls = {evaluate("{{roll:1d1000000}}", seed) for seed in range(6)}
    picks = {evaluate("{{random::a::b::c::d::e::f::g::h}}", seed) for seed in range(12)}
    assert len(rolls) > 1 and len(picks) > 1


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=0, max_value=2**31),
    st.integers(min_value=1, max_value=20),
    st.integers(min_value=1, max_value=50),
)
def test_a_roll_stays_in_its_range(seed: int, count: int, sides: int) -> None:
    value = int(evaluate(f"{{{{roll:{count}d{sides}}}}}", seed))
    assert count <= value <= count * sides


def test_text_that_spells_the_trim_mark_is_kept() -> None:
    # {{trim}} once left a fixed mark to cut at: a card holding that mark lost its text around it
    for text in ("a \x00bunzai-trim\x00 b", "\x00bunzai-trim-00\x00"):
        assert evaluate(text, 0) == text
    # only the line breaks around it go, as SillyTavern's /(?:\r?\n)*{{trim}}(?:\r?\n)*/ cuts them
    assert evaluate("one  {{trim}}\n two", 0) == "one   two"
    assert evaluate("a\r\n\r\n{{trim}}\n\tb", 0) == "a\tb"


@pytest.mark.parametrize(
    "formula", ["1d" + "9" * 5000, "9" * 5000, "2d6+" + "9" * 5000, "1d" + "1" * 16, "0" * 5000 + "1d" + "9" * 16]
)
def test_a_roll_past_javascripts_whole_numbers_rolls_as_nothing(formula: str) -> None:
    # int() refuses 4,300+ digits (the render failed as internal); JavaScript's dice are whole below 2**53
    assert evaluate(f"[{{{{roll:{formula}}}}}]", 1) == "[]"


def test_a_roll_of_fifteen_digits_still_rolls() -> None:
    value = int(evaluate("{{roll:1d999999999999999}}", 1))
    assert 1 <= value <= 999_999_999_999_999
    assert int(evaluate("{{roll:" + "0" * 40 + "1d6}}", 1)) in range(1, 7)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=60))
def test_text_without_macros_is_unchanged(text: str) -> None:
    assert evaluate(text, 0) == text
