"""RisuAI's regex actions: a replacement starting with `@@` (src/ts/process/scripts.ts,
executeScript). The action runs only when `reg.test` finds the pattern; `@@emo` leaves the text,
`@@inject` takes the matches out, `@@move_top`/`@@move_bottom` move the first match (the `g`
flag dropped) onto a line of its own, with `$N` and `$&` filled and `$<name>` left (RisuAI
parses the name as a number); any other `@@` replacement is a plain one."""

from __future__ import annotations

import pytest

from bunzai.regexlab.lab import try_pattern


def _risu(find: str, text: str, replace: str) -> tuple[str, list[str]]:
    tried = try_pattern(find, text, replace=replace, platform="risuai")
    return tried["result"], tried.get("notes", [])


def test_emo_leaves_the_text_and_says_what_risuai_does() -> None:
    result, notes = _risu("happy", "I am happy", "@@emo joy")
    assert result == "I am happy"
    assert any("emotion image" in n for n in notes)


def test_inject_takes_every_match_out() -> None:
    assert _risu(r"\[\w+\]", "a [x] b [y]", "@@inject")[0] == "a  b "


@pytest.mark.parametrize(
    ("replace", "result"),
    [
        ("@@move_top got $1 ($&)", "got x ([x])\na  b [y]"),
        ("@@move_bottom $1", "a  b [y]\nx"),
        # a capture past the last stays; $<n> stays; an OUT ending in ">" gets its newline first
        ("@@move_top $2 $<n>", "$2 $<n>\n\na  b [y]"),
    ],
)
def test_move_takes_the_first_match_onto_a_line_of_its_own(replace: str, result: str) -> None:
    assert _risu(r"\[(\w+)\]", "a [x] b [y]", replace)[0] == result


def test_an_action_acts_only_when_the_pattern_is_found() -> None:
    for replace in ("@@inject", "@@move_top $&", "@@emo joy", "@@other"):
        assert _risu("zzz", "a [x]", replace)[0] == "a [x]"


def test_repeat_back_that_matches_and_an_unknown_action_replace_as_written() -> None:
    assert _risu("x", "a x", "@@repeat_back end")[0] == "a @@repeat_back end"
    assert _risu("x", "a x", "@@other")[0] == "a @@other"
    result, notes = _risu("zzz", "a x", "@@repeat_back end")
    assert result == "a x" and any("previous message" in n for n in notes)


def test_flag_tokens_act_as_the_directives_do() -> None:
    from bunzai.adapters.risu.regex_scripts import typed_flags

    typed = typed_flags("g<move_bottom>")
    assert typed["actions"] == ["move_bottom"] and typed["flags"] == "u"
    tried = try_pattern(
        r"\[(\w+)\]", "a [x] b [y]", replace="got $1", platform="risuai", flags=typed["flags"], actions=typed["actions"]
    )
    assert tried["result"] == "a  b [y]\ngot x"
    injected = try_pattern(r"\[\w+\]", "a [x] b [y]", replace="zz", platform="risuai", actions=["inject"])
    assert injected["result"] == "a  b "
