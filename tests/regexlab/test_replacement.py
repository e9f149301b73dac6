"""A replacement respelled between SillyTavern's and RisuAI's readings draws the same text:
checked by running both in the embedded engine, as each platform reads its replacement."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.regexlab import engine
from bunzai.regexlab.replacement import capture_count, translate

PATTERN, FLAGS, TEXT = r"(a)(b)?(?<tail>c)?", "g", "xab ac a9 <a>"


def drawn(replacement: str, convention: str, *, no_end_newline: bool = False) -> str:
    request = {
        "op": "replace",
        "pattern": PATTERN,
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
    assert translate(text, "sillytavern", "risuai", 3).text == expected


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
    assert translate(text, "risuai", "sillytavern", 1).text == expected


def test_what_the_target_cannot_say_is_reported_and_removed() -> None:
    lost = translate("a $` b $' c", "risuai", "sillytavern", 1)
    assert lost.text == "a  b  c" and [v["token"] for v in lost.verdicts if v["verdict"] == "lost"] == ["$`", "$'"]
    dollar_n = translate("cost: $name", "sillytavern", "risuai", 1)
    assert dollar_n.text == "cost: name" and dollar_n.verdicts[-1]["verdict"] == "lost"


def test_the_same_convention_is_left_alone() -> None:
    assert translate("$& {{match}}", "risuai", "risuai", 0).text == "$& {{match}}"


def test_capture_count_reads_numbered_and_named_groups_and_assumes_all_when_unparsed() -> None:
    assert capture_count(PATTERN) == 3
    assert capture_count("(?:a)(?=b)") == 0
    assert capture_count("(") == 99


_PIECES = st.sampled_from(["$", "&", "0", "1", "2", "3", "9", "n", "<", ">", "x", " ", "{{match}}", "`", "'", "<tail>"])


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=8).map("".join))
def test_sillytavern_text_draws_the_same_in_risu_once_respelled(text: str) -> None:
    carried = translate(text, "sillytavern", "risuai", capture_count(PATTERN))
    if any(v["verdict"] == "lost" for v in carried.verdicts):
        return
    assert drawn(carried.text, "risuai", no_end_newline=carried.needs_no_end_newline) == drawn(text, "sillytavern")


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=8).map("".join))
def test_risu_text_draws_the_same_in_sillytavern_once_respelled(text: str) -> None:
    carried = translate(text, "risuai", "sillytavern", capture_count(PATTERN))
    if any(v["verdict"] == "lost" for v in carried.verdicts):
        return
    assert drawn(carried.text, "sillytavern") == drawn(text, "risuai")
