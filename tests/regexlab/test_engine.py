"""The engine: bounded runs, coded refusals, platform readings, and a start-up that never loads it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.regexlab.lab import parse_find, race_patterns, try_pattern


def test_the_catastrophic_pattern_is_refused_with_its_code_naming_the_pattern() -> None:
    with pytest.raises(BunzaiError) as caught:
        try_pattern("(a+)+$", "a" * 40 + "b")
    assert caught.value.code == "regex_timeout"
    assert "/(a+)+$/" in caught.value.message
    assert caught.value.details["seconds"] == limits.REGEX_RUN_SECONDS


def test_the_engine_still_runs_after_an_interrupted_pattern() -> None:
    with pytest.raises(BunzaiError):
        try_pattern("(a+)+$", "a" * 40 + "b")
    assert try_pattern("/a+/g", "aa b aaa")["count"] == 2


def test_a_pattern_that_does_not_compile_is_refused_naming_it() -> None:
    with pytest.raises(BunzaiError) as caught:
        try_pattern("(unclosed", "text")
    assert caught.value.code == "invalid_regex" and "(unclosed" in caught.value.message


def test_a_text_over_the_limit_is_refused_before_running() -> None:
    with pytest.raises(BunzaiError) as caught:
        try_pattern("a", "a" * (limits.REGEX_TEXT_MAX_CHARS + 1))
    assert caught.value.code == "too_large"


def test_matches_carry_spans_groups_and_named_groups() -> None:
    found = try_pattern("/(?<who>\\w+): (\\w+)/g", "é Ann: hi", replace="$<who> said $2")
    match = found["matches"][0]
    assert (match["start"], match["end"], match["match"]) == (2, 9, "Ann: hi")
    assert match["groups"] == ["Ann", "hi"] and match["named"] == {"who": "Ann"}
    assert found["result"] == "é Ann said hi" and found["group_names"] == ["who"]


@pytest.mark.parametrize(
    "platform,find,expected",
    [
        ("javascript", "/a+/gi", ("a+", "gi")),
        ("javascript", "a+", ("a+", "")),
        ("sillytavern", "/a+/gi", ("a+", "gi")),
        ("sillytavern", "a+", ("a+", "")),
        ("sillytavern", "/a+/gg", ("/a+/gg", "")),  # repeated flags: the whole string is the pattern
        ("risuai", "a+", ("a+", "g")),
    ],
)
def test_each_platform_reads_a_find_regex_its_own_way(platform, find, expected) -> None:
    parsed = parse_find(find, platform)
    assert (parsed["pattern"], parsed["flags"]) == expected


def test_sillytavern_bare_patterns_replace_the_first_match_only_and_say_so() -> None:
    tried = try_pattern("\\*(.+?)\\*", "*a* *b*", replace="[$1]", platform="sillytavern")
    assert tried["result"] == "[a] *b*" and "only the first match" in tried["notes"][0]


def test_race_reports_failures_in_their_rows_and_whether_candidates_agree() -> None:
    raced = race_patterns(["/a+/g", "(x", "/a/g"], "aa")
    assert raced["candidates"][0]["matches"] == ["aa"]
    assert raced["candidates"][1]["error"]["code"] == "invalid_regex"
    assert raced["candidates"][2]["matches"] == ["a", "a"] and raced["agree"] is False


def test_cli_start_up_never_imports_the_engine() -> None:
    code = "import sys, bunzai.cli.app; print('_quickjs' in sys.modules, 'bunzai.regexlab.engine' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_a_sillytavern_reference_that_makes_sillytavern_throw_is_a_coded_refusal() -> None:
    """$N past the captures reaches SillyTavern's replace callback's other arguments: its trim
    step cannot take the match position (a number), and the named groups object throws."""
    from bunzai.errors import BunzaiError
    from bunzai.regexlab.lab import try_pattern

    with pytest.raises(BunzaiError) as caught:
        try_pattern("/(?<n>b)/g", "abc", replace="[$4]", platform="sillytavern")
    assert caught.value.code == "invalid_input" and "named groups object" in caught.value.message
    with pytest.raises(BunzaiError) as caught:
        try_pattern("/(b)/g", "abc", replace="[$2]", platform="sillytavern", trim_strings=["x"])
    assert caught.value.code == "invalid_input" and "match position" in caught.value.message
    assert try_pattern("/(b)/g", "abc", replace="[$2|$3]", platform="sillytavern")["result"] == "a[1|abc]c"
