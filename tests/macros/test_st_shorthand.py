"""SillyTavern's variable shorthand as its Macros 2.0 lexer and parser read it (MacroLexer.js
MACRO_VARIABLE_SHORTHAND_PATTERN `[a-zA-Z](?:[\\w\\-_]*[\\w])?`, then an operator; MacroCstWalker.js
flattens a macro whose closing braces the parser's recovery had to insert into plain text). Each
reading below was checked by lexing and parsing the case with SillyTavern's own lexer and parser
(chevrotain) under node."""

from __future__ import annotations

import pytest
from testkit import macro_read

from bunzai.macros.catalog import catalog_for
from bunzai.macros.syntax import parse_token
from bunzai.macros.translate import translate_text


def _read(raw: str) -> tuple[str | None, list[str]] | None:
    return macro_read("sillytavern", raw)


@pytest.mark.parametrize(
    ("raw", "read"),
    [
        ("{{.x-=2}}", ("var.sub", ["x", "2"])),  # a name ends on a word character: `-=` is the operator
        ("{{.my-var}}", ("var.get", ["my-var"])),
        ("{{.my--}}", ("var.dec", ["my"])),
        ("{{.x_}}", ("var.get", ["x_"])),
        ("{{$x -= 2}}", ("gvar.sub", ["x", "2"])),
    ],
)
def test_a_shorthand_is_read_as_sillytaverns_lexer_reads_it(raw: str, read: tuple) -> None:
    assert _read(raw) == read


@pytest.mark.parametrize(
    "raw",
    [
        "{{._x}}",  # a name starts with an ASCII letter: the parser finds no closing braces
        "{{.1x}}",
        "{{.café}}",  # "caf", then "é}}" is text: the closing braces were inserted by the recovery
        "{{.x é}}",
        "{{.x-}}",  # "x", then "-}}": no operator
        "{{.x 1}}",
    ],
)
def test_a_shorthand_sillytavern_prints_as_text_is_no_macro(raw: str) -> None:
    token = parse_token(raw, 0, catalog_for("sillytavern").syntax)
    assert token.text and _read(raw) is None
    [verdict] = translate_text(raw, "sillytavern", "risuai").verdicts
    assert verdict["verdict"] == "unknown"


def test_a_word_after_the_name_is_not_text() -> None:
    # `{{.x y}}`: the parser skips the word and reads the variable (its real closing braces stay)
    assert not parse_token("{{.x y}}", 0, catalog_for("sillytavern").syntax).text
