"""Count and index arguments of SillyTavern macros in digits other than ASCII.

SillyTavern's macro engine checks an integer argument with `/^-?\\d+$/` (ASCII digits) and
leaves a macro whose argument fails as written (strictArgs, MacroRegistry.js). Python's
str.isdigit() also takes '²' (which int() then refuses: the render failed as internal) and
Arabic-Indic or full-width digits (which int() reads)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from bunzai.render.macro_eval import MacroContext, MacroEvaluator


def _run(text: str) -> str:
    ctx = MacroContext(char="雪乃", first_message="こんにちは", greetings=["你好", "안녕"])
    return MacroEvaluator(ctx).evaluate(text, "test").text


@pytest.mark.parametrize(
    "text",
    ["a{{newline::²}}b", "a{{space::٣}}b", "a{{space::３}}b", "{{greeting::²}}", "{{greeting::١}}", "{{newline::-1}}"],
)
def test_a_count_or_index_in_other_digits_leaves_the_macro_as_written(text: str) -> None:
    assert _run(text) == text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("{{greeting::0}}", "こんにちは"),
        ("{{greeting::2}}", "안녕"),
        ("{{greeting::3}}", ""),
        ("a{{space:: 2 }}b", "a  b"),
    ],
)
def test_ascii_indexes_pick_greetings_as_sillytavern_does(text: str, value: str) -> None:
    # 0 is the main greeting, n the n-th alternate (env-macros.js charFirstMessage)
    assert _run(text) == value


@settings(max_examples=200, deadline=None)
@given(arg=st.text(alphabet=st.characters(categories=["Nd", "No", "Zs"]) | st.sampled_from("-0123"), max_size=6))
def test_no_digit_argument_fails_the_render(arg: str) -> None:
    for name in ("space", "newline", "greeting"):
        _run(f"{{{{{name}::{arg}}}}}")
