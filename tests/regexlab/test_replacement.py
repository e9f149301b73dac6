"""A replacement respelled between SillyTavern's and RisuAI's readings draws the same text:
checked by running both in the embedded engine, as each platform reads its replacement."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.regexlab import engine
from bunzai.regexlab.replacement import Captures, captures, translate

PATTERN, FLAGS, TEXT = r"(a)(b)?(?<tail>c)?", "g", "xab ac a9 <a>"
PATTERNS = st.sampled_from([PATTERN, r"(a)(b)?c?"])  # with and without a named group


def drawn(replacement: str, convention: str, *, no_end_newline: bool = False, pattern: str = PATTERN) -> str:
    request = {
        "op": "replace",
        "pattern": pattern,
        "flags": FLAGS,
        "text": TEXT,
        "replacement": replacement,
        "convention": convention,
        "trims": [],
        "macros": {},
        "substitute": "none",
        "noEndNewline": no_end_newline,
    }
    return engine.call(request)["result"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<i>{{match}}</i> $0 cost $&5", "<i>$&</i> $& cost $$&5"),
        ("$1$2 $12 $<tail>", "$01$02  $<tail>"),
        ("{{MATCH}}", "$&"),
    ],
)
def test_sillytavern_to_risu_spellings(text: str, expected: str) -> None:
    assert translate(text, "sillytavern", "risuai", Captures(3, True)).text == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<i>$&</i>$nprice: $$5", "<i>{{match}}</i>\nprice: ${{noop}}5"),
        ("$12 $10", "$1{{noop}}2 $1{{noop}}0"),
        ("$0 $5", "${{noop}}0 ${{noop}}5"),
        ("<b>$1</b>", "<b>$1</b>\n"),
    ],
)
def test_risu_to_sillytavern_spellings(text: str, expected: str) -> None:
    assert translate(text, "risuai", "sillytavern", Captures(1, False)).text == expected


def test_what_the_target_cannot_say_is_reported_and_removed() -> None:
    lost = translate("a $` b $' c", "risuai", "sillytavern", Captures(1, False))
    assert lost.text == "a  b  c" and [v["token"] for v in lost.verdicts if v["verdict"] == "lost"] == ["$`", "$'"]
    position = translate("[$2|$3|$4]", "sillytavern", "risuai", Captures(1, False))
    assert position.text == "[|$`$&$'|]" and [v["token"] for v in position.verdicts if v["verdict"] == "lost"] == ["$2"]


def test_a_literal_dollar_n_reaches_risu_through_an_empty_macro() -> None:
    """The spacer is SillyTavern's {{noop}}: the crossing translates the macros after (to {{blank}})."""
    assert translate("cost: $name", "sillytavern", "risuai", Captures(1, False)).text == "cost: $${{noop}}name"


def test_named_references_follow_whether_the_pattern_has_named_groups() -> None:
    assert translate("$<b>x", "risuai", "sillytavern", Captures(1, False)).text == "${{noop}}<b>x"
    assert translate("$<b>x", "sillytavern", "risuai", Captures(1, False)).text == "x"
    assert translate("$<b>x", "sillytavern", "risuai", Captures(1, True)).text == "$<b>x"


def test_the_same_convention_is_left_alone() -> None:
    assert translate("$& {{match}}", "risuai", "risuai", Captures(0, False)).text == "$& {{match}}"


def test_captures_reads_numbered_and_named_groups_and_assumes_all_when_unparsed() -> None:
    assert captures(PATTERN) == Captures(3, True)
    assert captures("(?:a)(?=b)") == Captures(0, False)
    assert captures("(") == Captures(99, True)


_PIECES = st.sampled_from(
    [
        "$",
        "&",
        "0",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "9",
        "n",
        "<",
        ">",
        "x",
        " ",
        "{{match}}",
        "`",
        "'",
        "<tail>",
        "<b>",
        "{{noop}}",
        "{{$f}}",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=8).map("".join), PATTERNS)
def test_sillytavern_text_draws_the_same_in_risu_once_respelled(text: str, pattern: str) -> None:
    carried = translate(text, "sillytavern", "risuai", captures(pattern))
    if any(v["verdict"] == "lost" for v in carried.verdicts):
        return
    no_end_newline = carried.text.endswith(">")  # the crossing adds the no_end_nl token then
    # user {{noop}}s are gone, so any left is the spacer, which the crossing's macro translation
    # makes RisuAI's {{blank}} (tests/regexlab/test_replacement_spacer.py)
    risu = drawn(
        carried.text.replace("{{noop}}", "{{blank}}"), "risuai", no_end_newline=no_end_newline, pattern=pattern
    )
    assert risu == drawn(text, "sillytavern", pattern=pattern)


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=8).map("".join), PATTERNS)
def test_risu_text_draws_the_same_in_sillytavern_once_respelled(text: str, pattern: str) -> None:
    carried = translate(text, "risuai", "sillytavern", captures(pattern))
    if any(v["verdict"] == "lost" for v in carried.verdicts):
        return
    assert drawn(carried.text, "sillytavern", pattern=pattern) == drawn(text, "risuai", pattern=pattern)
