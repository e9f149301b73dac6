"""`regex-lab race` with a candidate the platform itself fails on: the others are still compared."""

from __future__ import annotations

import pytest

from bunzai.errors import BunzaiError
from bunzai.regexlab.lab import race_patterns


def test_a_candidate_sillytavern_throws_on_is_a_failing_row_not_the_end_of_the_race() -> None:
    """$4 after one named capture is SillyTavern's named-groups object (its code throws there);
    after two plain captures it is the whole text."""
    raced = race_patterns(["/(?<who>\\w+)@/g", "/(\\w+)@(\\w+)/g"], "ann@home", replace="[$4]", platform="sillytavern")
    failing, other = raced["candidates"]
    assert failing["error"]["code"] == "invalid_input"
    assert "SillyTavern fails on $4" in failing["error"]["message"] and "named groups" in failing["error"]["message"]
    assert "result" not in failing
    assert other["result"] == "[ann@home]" and other["matches"] == ["ann@home"]
    assert raced["agree"] is True


def test_an_unknown_platform_still_stops_the_race() -> None:
    with pytest.raises(BunzaiError) as caught:
        race_patterns(["/a/g"], "a", platform="nowhere")
    assert caught.value.code == "invalid_input"


def test_the_command_ranks_the_other_candidates_and_exits_0(bunzai) -> None:
    done = bunzai(
        "regex-lab", "race", "/(?<n>b)/g", "/b/g", "--text", "abc", "--replace", "[$4]", "--platform", "sillytavern"
    )
    assert done.code == 0
    rows = done.json["candidates"]
    assert rows[0]["error"]["code"] == "invalid_input" and rows[1]["result"] == "a[]c"
