"""SillyTavern's `{{.x-=2}}` where the target has no subtraction. MacroCstWalker.js (`sub`) adds
`-Number(value)` with addLocalVariable (and does nothing when the value is no number);
RisuAI's addvar (cbs.ts) stores `Number(getChatVar(x)) + Number(value)`. So `{{addvar::x::-2}}`
does the same where x holds a number; an unset x ('null' in RisuAI: NaN, 0 in SillyTavern) or a
text x ("abc-2" in SillyTavern, NaN in RisuAI) differs, and the verdict says so."""

from __future__ import annotations

import pytest

from bunzai.macros.ops import as_addition
from bunzai.macros.translate import translate_text


@pytest.mark.parametrize(
    ("value", "negated"),
    [
        ("2", "-2"),
        ("-3", "3"),
        ("+2", "-2"),
        ("2.5", "-2.5"),
        (".5", "-.5"),
        ("1e3", "-1e3"),
        ("Infinity", "-Infinity"),
    ],
)
def test_a_number_is_negated_in_writing(value: str, negated: str) -> None:
    assert as_addition("var.sub", ["x", value]) == ("var.add", ["x", negated])


@pytest.mark.parametrize("value", ["0x10", "abc", "", "{{getvar::y}}", "2 3"])
def test_a_value_whose_negation_javascript_does_not_read_is_not_rewritten(value: str) -> None:
    # Number("-0x10") is NaN; a nested macro's value is known only when the prompt is built
    assert as_addition("var.sub", ["x", value]) is None


@pytest.mark.parametrize(
    ("written", "target", "expected"),
    [
        ("{{.x-=2}}", "risuai", "{{addvar::x::-2}}"),
        ("{{.x -= -3}}", "risuai", "{{addvar::x::3}}"),
        ("{{.x-=2}}", "sillytavern-legacy", "{{addvar::x::-2}}"),
        ("{{$x-=2}}", "sillytavern-legacy", "{{addglobalvar::x::-2}}"),
    ],
)
def test_a_subtraction_crosses_as_the_addition_of_its_negative(written: str, target: str, expected: str) -> None:
    out = translate_text(written, "sillytavern", target)
    [verdict] = out.verdicts
    assert out.text == expected
    assert verdict["verdict"] == "portable" and verdict["op"] in ("var.sub", "gvar.sub")
    assert "the same where x holds a number" in verdict["note"]


def test_a_value_that_is_no_number_is_still_removed() -> None:
    # SillyTavern's -= changes nothing then; RisuAI's addvar would store NaN
    out = translate_text("{{.x-=abc}}", "sillytavern", "risuai")
    assert out.text == "" and out.verdicts[0]["verdict"] == "absent"


def test_the_command_writes_addvar(bare_bunzai) -> None:
    doc = bare_bunzai("macro", "translate", "--from", "sillytavern", "--to", "risuai", input="{{.hp-=2}}").json
    assert doc["text"] == "{{addvar::hp::-2}}"
    assert doc["verdicts"][0]["note"].startswith("risuai has no var.sub: written as var.add of -2")
