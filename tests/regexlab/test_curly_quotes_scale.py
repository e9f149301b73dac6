"""The curly-quotes recipe reads a dialogue before it looks back for an unclosed `<`: the same
replacements as the pattern that looked back at every quote, without a look back to the last
bracket for each quote that opens no dialogue (which made 100 KB of quotes quadratic)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.regexlab.lab import try_pattern
from bunzai.regexlab.lint import lint_set
from bunzai.regexlab.recipes import CURLY_QUOTES_FIND, RECIPES, recipe_rule

LOOKED_BACK_AT_EVERY_QUOTE = r'/(?<!<[^<>]*)"((?:<[^>]*>|[^"<\n])+)"/g'
REPLACE = "\u201c$1\u201d"
_PIECES = ['"', '"', '"', "<", ">", "a", " ", "\n", "=", "<b>", "</b>", '<i class="x">', "<" + " " * 17, "\u00e9"]


def _curled(find: str, text: str) -> str:
    return try_pattern(find, text, replace=REPLACE, platform="sillytavern")["result"]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_it_curls_what_the_pattern_that_looked_back_at_every_quote_curled(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _curled(CURLY_QUOTES_FIND, text) == _curled(LOOKED_BACK_AT_EVERY_QUOTE, text)


def test_the_recipe_is_this_pattern() -> None:
    assert next(r for r in RECIPES if r["name"] == "curly-quotes")["find"] == CURLY_QUOTES_FIND


def test_two_hundred_thousand_quotes_run_inside_the_time_limit() -> None:
    # Looking back to the start at each of them is over 10^11 steps: far past the engine's 1 s.
    text = '"' * 200_000
    assert _curled(CURLY_QUOTES_FIND, text) == text


def test_quotes_after_an_unclosed_bracket_are_set_aside_without_reading_on() -> None:
    # each one's dialogue would read to the end of the text looking for the tag's > if read first
    text = '"a<' * 200_000
    assert _curled(CURLY_QUOTES_FIND, text) == text


def test_the_rule_lints_clean() -> None:
    rule = recipe_rule(next(r for r in RECIPES if r["name"] == "curly-quotes"))
    piece = {"kind": "regex", "id": "q", "name": "q", "body": {"rules": [rule]}}
    assert lint_set(piece)["findings"] == []
