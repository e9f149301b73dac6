"""bunzai.jstext holds JavaScript's whitespace, not Python's: checked against the embedded
ECMAScript engine (its `\\s` is WhiteSpace and LineTerminator, the set String.prototype.trim
and parseInt skip) and, where node is on PATH, against node's own trim and parseInt."""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunzai.jstext import JS_WHITESPACE, js_number, js_parse_int, js_trim, js_trim_end, js_trim_start
from bunzai.regexlab import engine

# Where Python's str.strip and JavaScript's trim part: Python takes the first five, JavaScript
# the BOM; U+180E (once a space) neither.
DIFFER = "\x1c\x1d\x1e\x1f\x85\ufeff\u180e"


def test_the_set_is_the_engines_whitespace() -> None:
    text = "".join(chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF)
    request = {"pattern": r"\S", "flags": "gu", "replacement": "", "convention": "javascript"}
    request |= {"trims": [], "macros": {}, "substitute": "none", "text": text, "op": "replace"}
    assert engine.call(request)["result"] == "".join(sorted(JS_WHITESPACE))


@pytest.mark.parametrize("char", DIFFER)
def test_trim_keeps_what_javascript_keeps(char: str) -> None:
    text = f"{char}a{char}"
    assert js_trim(text) == ("a" if char == "\ufeff" else text)
    assert js_trim_start(text) == ("a\ufeff" if char == "\ufeff" else text)
    assert js_trim_end(text) == ("\ufeffa" if char == "\ufeff" else text)


def _node(script: str, values: list[str]):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH")
    run = subprocess.run([node, "-e", script], input=json.dumps(values), capture_output=True, text=True, timeout=60)
    return json.loads(run.stdout)


_PIECES = [*DIFFER, " ", "\t", "\u3000", "\u2028", "a", "-", "+", "0x", "7", "f", "e"]
NODE_TRIM = "const v=JSON.parse(require('fs').readFileSync(0,'utf8'));console.log(JSON.stringify(v.map(s=>s.trim())))"
NODE_INT = (
    "const v=JSON.parse(require('fs').readFileSync(0,'utf8'));"
    "console.log(JSON.stringify(v.map(s=>{const n=parseInt(s);return Number.isNaN(n)?'NaN':String(n)})))"
)


def test_trim_and_parse_int_agree_with_node() -> None:
    chance = random.Random(389)
    values = ["".join(chance.choices(_PIECES, k=chance.randrange(8))) for _ in range(300)]
    values += [f"{c}12" for c in DIFFER] + ["0x", "0xg", "0x1F", "-0x10", "99" * 200, "1e3", "+ 5", ""]
    assert _node(NODE_TRIM, values) == [js_trim(v) for v in values]
    ints = [js_parse_int(v) for v in values]
    shown = [
        "NaN" if math.isnan(n) else ("Infinity" if n == math.inf else "-Infinity" if n == -math.inf else n)
        for n in ints
    ]
    for got, want in zip(shown, _node(NODE_INT, values)):
        assert got == want if isinstance(got, str) else float(want) == got


@given(st.text(alphabet=st.sampled_from([*DIFFER, " ", "a"])))
def test_trim_is_both_ends(text: str) -> None:
    assert js_trim(text) == js_trim_end(js_trim_start(text))


NODE_NUMBER = (
    "const v=JSON.parse(require('fs').readFileSync(0,'utf8'));"
    "console.log(JSON.stringify(v.map(s=>{const n=Number(s);return Number.isNaN(n)?'NaN':String(n)})))"
)
_NUMBER_PIECES = [*DIFFER, " ", "1", "0", "7", ".", "e", "E", "+", "-", "x", "b", "o", "_", "\u0661", "Infinity", "inf"]


def test_number_agrees_with_node() -> None:
    chance = random.Random(390)
    values = ["".join(chance.choices(_NUMBER_PIECES, k=chance.randrange(6))) for _ in range(600)]
    values += ["1e3", "0x10", "0X1f", "-0x10", "0b101", "0o17", ".5", "5.", "+Infinity", "-Infinity", "1_000", "nan"]
    values += ["\u0661", " 12 ", "\ufeff3", "\x1c3", "", "  ", "1e", "e1", "0x", "9" * 400]
    got = [js_number(v) for v in values]
    for value, number, want in zip(values, got, _node(NODE_NUMBER, values)):
        if want == "NaN":
            assert math.isnan(number), value
        else:
            assert number == float(want), value
