"""`--platform risuai --flags` read as RisuAI reads a script's custom-flag field: `<...>` tokens
taken out (`<cbs>` parses the pattern's macros), letters JavaScript does not know dropped, an
empty field or one left with none compiled as RisuAI compiles it; each drop said in `notes`."""

from __future__ import annotations

import pytest

from bunzai.adapters.risu.regex_scripts import parse_flag, typed_flags


@pytest.mark.parametrize(
    ("typed", "flags", "substitute", "said"),
    [
        ("g", "g", "none", []),
        ("", "g", "none", []),  # RisuAI: `flag || 'g'`
        ("<cbs>", "g", "raw", []),  # the tokens leave nothing: `g`
        ("gi<order 2>", "gi", "none", ["<order 2>"]),
        ("gx", "g", "none", ["'x'"]),
        ("zz", "u", "none", ["'z'"]),  # nothing left by the filter: RisuAI compiles `u`
        ("g i", "gi", "none", []),
    ],
)
def test_flags_typed_as_risuai_reads_them(typed, flags, substitute, said):
    letters, mode, notes = typed_flags(typed)
    assert (letters, mode) == (flags, substitute)
    assert len(notes) == len(said) and all(word in " ".join(notes) for word in said)
    assert letters == parse_flag(typed, True)[0]  # the same reading as a script's in a file


def test_a_chosen_substitution_is_kept_over_cbs():
    assert typed_flags("<cbs>", "escaped")[1] == "escaped"


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
    javascript = bunzai("regex-lab", "try", "a", "--text", "a", "--flags", "gx")  # other platforms: as typed
    assert javascript.code == 1 and javascript.json["error"]["code"] == "invalid_regex"
