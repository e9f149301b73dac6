"""`--platform risuai --flags` read as RisuAI reads a script's custom-flag field: `<...>` tokens
taken out (`<cbs>` parses the pattern's macros), letters JavaScript does not know dropped, an
empty field or one left with none compiled as RisuAI compiles it; each drop said in `notes`."""

from __future__ import annotations

import pytest

from bunzai.adapters.risu.regex_scripts import parse_flag, typed_flags


@pytest.mark.parametrize(
    ("typed", "flags", "cbs", "no_end_newline", "said"),
    [
        ("g", "g", False, False, []),
        ("", "g", False, False, []),  # RisuAI: `flag || 'g'`
        ("<cbs>", "g", True, False, ["test-first"]),  # the tokens leave nothing: `g`
        ("gi<order 2>", "gi", False, False, ["<order 2> orders"]),  # <order N> alone keeps the plain path
        ("gx", "g", False, False, ["'x'"]),
        ("zz", "u", False, False, ["'z'"]),  # nothing left by the filter: RisuAI compiles `u`
        ("g i", "gi", False, False, []),
        ("g<no_end_nl>", "g", False, True, ["test-first"]),
        ("gi<move_top>", "i", False, False, ["<move_top> drops", "test-first"]),  # RisuAI drops the first g
        ("gg<move_top>", "g", False, False, ["<move_top> drops", "test-first"]),  # ... the first only
        ("<move_bottom>", "u", False, False, ["<move_bottom> drops", "test-first"]),
        ("g<inject,repeat_back>", "g", False, False, ["<inject> takes", "<repeat_back> repeats", "test-first"]),
        ("g<cbs, order 1, sparkle>", "g", True, False, ["<order 1>", "<sparkle> is no token", "test-first"]),
        ("y<cbs>", "y", True, False, ["where that test stopped"]),  # a sticky replace starts after the test
    ],
)
def test_flags_typed_as_risuai_reads_them(typed, flags, cbs, no_end_newline, said):
    read = typed_flags(typed)
    assert (read["flags"], read["cbs"], read["no_end_newline"]) == (flags, cbs, no_end_newline)
    assert len(read["notes"]) == len(said) and all(word in " ".join(read["notes"]) for word in said)
    assert read["flags"] == parse_flag(typed, True)[0]  # the same reading as a script's in a file


@pytest.mark.parametrize(
    ("typed", "out", "flags"),
    [
        ("g", "@@move_top $&", "u"),  # an OUT that moves drops the g as a <move_top> does
        ("gg", "@@move_bottom $&", "g"),  # once
        ("gg<move_top>", "@@move_top $&", "g"),  # once for both
        ("", "@@move_top $&", "u"),
        ("g", "$n@@move_top $&", "g"),  # RisuAI looks at the OUT's start
    ],
)
def test_an_out_that_moves_drops_one_g_of_the_typed_flags(typed, out, flags):
    assert typed_flags(typed, out)["flags"] == flags == parse_flag(typed, True, out)[0]


def test_the_actions_are_every_token_but_order():
    assert typed_flags("g<order 3, cbs,no_end_nl><sparkle><cbs>")["actions"] == ["cbs", "no_end_nl", "sparkle"]
    assert typed_flags("g<order 3>")["actions"] == []


def test_try_race_and_explain_read_risuai_flags_end_to_end(bunzai) -> None:
    tried = bunzai("regex-lab", "try", "a", "--text", "aAa", "--platform", "risuai", "--flags", "gix<order 2>").json
    assert tried["flags"] == "gi" and tried["count"] == 3
    assert any("'x'" in note for note in tried["notes"]) and any("<order 2>" in note for note in tried["notes"])
    cbs = ("{{user}}", "--text", "Ann Bob", "--macro", "user=Ann", "--platform", "risuai", "--flags", "<cbs>")
    assert [match["match"] for match in bunzai("regex-lab", "try", *cbs, check=True).json["matches"]] == ["Ann"]
    raced = bunzai("regex-lab", "race", "a", "b", "--text", "ab", "--platform", "risuai", "--flags", "", check=True)
    assert raced.code == 0
    explained = bunzai("regex-lab", "explain", "a", "--platform", "risuai", "--flags", "zz", check=True).json
    assert explained["flags"] == "u" and explained["notes"]
    ended = ("(\\w+)@", "--text", "ann@home", "--replace", "<b>$1</b>", "--platform", "risuai")
    assert bunzai("regex-lab", "try", *ended, check=True).json["result"] == "<b>ann</b>\nhome"
    kept = bunzai("regex-lab", "try", *ended, "--flags", "g<no_end_nl>", check=True).json
    assert kept["result"] == "<b>ann</b>home"
    escaped = bunzai("regex-lab", "try", *cbs[:-1], "<cbs>", "--substitute", "escaped", check=True).json
    assert escaped["count"] == 1  # a chosen --substitute is kept over <cbs>'s raw
    javascript = bunzai("regex-lab", "try", "a", "--text", "a", "--flags", "gx")  # other platforms: as typed
    assert javascript.code == 1 and javascript.json["error"]["code"] == "invalid_regex"
