"""Lumiverse's variable shorthand as its own lexer scans it (src/macros/MacroLexer.ts
lexMacroContent and lexOperator, MacroParser.ts parseVariableShorthand, at Lumiverse ee545baa):
the name is `[\\w\\-]` without the `u` flag (ASCII letters, digits, `_`, `-`; none required; a `-`
before `-` or `=` ends it), the gaps are spaces and tabs alone, and anything else left before the
braces closes the token early and prints the rest garbled. Each reading below was checked by
compiling that lexer and parser with TypeScript 5 and parsing the case under node."""

from __future__ import annotations

import pytest
from testkit import macro_read

from bunzai.macros.translate import translate_text


def _read(raw: str) -> tuple[str | None, list[str]] | None:
    return macro_read("lumiverse", raw)


@pytest.mark.parametrize(
    ("raw", "read"),
    [
        ("{{.x\t=\t5}}", ("tvar.set", ["x", "5"])),  # a tab is a gap: setvar("x", "5")
        ("{{\t.x\t++}}", ("tvar.inc", ["x"])),
        ("{{.5}}", ("tvar.get", ["5"])),  # a digit may start the name
        ("{{.my-var}}", ("tvar.get", ["my-var"])),
        ("{{.x-=2}}", ("tvar.sub", ["x", "2"])),  # `-=` ends the name: addvar("x", "-2")
        ("{{.x ||= v}}", ("tvar.get", ["x", "= v"])),  # no `||=`: `||` and the fallback "= v"
        ("{{.x = \n5\n}}", ("tvar.set", ["x", "\n5"])),  # a value keeps its lead, its end trimmed
        ("{{.}}", ("tvar.get", [""])),  # getvar("")
    ],
)
def test_a_shorthand_is_read_as_lumiverses_lexer_reads_it(raw: str, read: tuple) -> None:
    assert _read(raw) == read


@pytest.mark.parametrize(
    "raw",
    [
        "{{.café}}",  # getvar("caf"), then "}" printed: é is no name character
        "{{.é}}",
        "{{.x\n}}",  # getvar("x"), then "}": a newline is no gap
        "{{.x\u00a0}}",  # nor a no-break space
        "{{.x\u00a0=5}}",  # getvar("x"), then "5}}"
        "{{.x = a::b}}",  # setvar("x", "a"), then "b}}"
    ],
)
def test_a_shorthand_with_anything_left_over_is_no_macro(raw: str) -> None:
    assert _read(raw) is None
    [verdict] = translate_text(raw, "lumiverse", "sillytavern").verdicts
    assert verdict["verdict"] == "unknown"


def test_a_name_lumiverse_cannot_scan_is_not_written_as_a_shorthand() -> None:
    # SillyTavern's name may hold `--`; Lumiverse reads `{{@my--var}}` as decchatvar("my") and "r}}"
    out = translate_text("{{.my--var}} {{.x}}", "sillytavern", "lumiverse")
    assert out.text == "{{getchatvar::my--var}} {{@x}}"
