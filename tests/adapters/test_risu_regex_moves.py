"""A RisuAI script that moves its matches (`<move_top>`/`<move_bottom>` in its flag, or an OUT starting
`@@move_top`/`@@move_bottom`) is compiled without its flags' first `g` (processScripts, scripts.ts): it
reads with the flags RisuAI runs it with, and a rule that keeps `g` is written with it twice."""

from __future__ import annotations

import json
import re

from cards_support import read
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece


def risu_compiled(script: dict) -> str:
    """processScripts' flags, step by step: tokens out, `flag || 'g'`, a move drops the first g,
    letters outside dgimsuvy dropped, repeats removed, none left -> u."""
    flag = "g"
    if script.get("ableFlag"):
        flag = (
            re.sub(r"<(.+?)>", "", script.get("flag") or "")
            if "<" in (script.get("flag") or "")
            else script.get("flag")
        )
        flag = flag or "g"
    tokens = [part.strip() for found in re.findall(r"<(.+?)>", script.get("flag") or "") for part in found.split(",")]
    moves = {"move_top", "move_bottom"} & set(tokens) if script.get("ableFlag") else set()
    if script.get("out", "").startswith(("@@move_top", "@@move_bottom")) or moves:
        flag = flag.replace("g", "", 1)
    return "".join(dict.fromkeys(re.sub(r"[^dgimsuvy]", "", flag.strip()))) or "u"


SCRIPTS = [
    {"comment": "up", "in": "a", "out": "@@move_top $&", "type": "editdisplay"},
    {"comment": "flagged", "in": "a", "out": "$&", "type": "editdisplay", "flag": "gi<move_top>", "ableFlag": True},
    {"comment": "twice", "in": "a", "out": "$&", "type": "editdisplay", "flag": "ggi<move_bottom>", "ableFlag": True},
    {"comment": "plain", "in": "a", "out": "b", "type": "editdisplay", "flag": "gi", "ableFlag": True},
]


def _export(scripts: list[dict]) -> bytes:
    return json.dumps({"type": "regex", "data": scripts}).encode()


def test_a_moving_script_reads_with_the_flags_risuai_compiles():
    rules = read_bytes(_export(SCRIPTS), "moves.json")[1].pieces[0].body.rules
    assert [rule.flags for rule in rules] == [risu_compiled(script) for script in SCRIPTS] == ["u", "i", "gi", "gi"]


def test_an_unedited_set_writes_back_as_it_was():
    _adapter, decoded, media = read(_export(SCRIPTS), "moves.json")
    assert json.loads(convert_piece(decoded.pieces[0], "risu.regex", media).data)["data"] == SCRIPTS


def test_a_moving_rule_that_keeps_g_is_written_with_g_twice():
    _adapter, decoded, media = read(_export(SCRIPTS[1:2]), "moves.json")
    piece = decoded.pieces[0]
    rule = piece.body.rules[0].model_copy(update={"flags": "gi"})
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"rules": [rule]})})
    crossing = convert_piece(piece, "risu.regex", media)
    script = json.loads(crossing.data)["data"][0]
    assert script["flag"] == "ggi<move_top>" and risu_compiled(script) == "gi"
    assert [loss for loss in crossing.losses if loss.code == "crossing.not_carried"] == []


@settings(max_examples=80, deadline=None)
@given(
    flags=st.text("gimsu", max_size=4).map(lambda text: "".join(dict.fromkeys(text))),
    move=st.sampled_from(["<move_top>", "<move_bottom>", "", "@@"]),
)
def test_any_rule_is_written_so_that_risuai_compiles_its_flags(flags, move):
    out = "@@move_top $&" if move == "@@" else "$&"
    script = {
        "comment": "r",
        "in": "a",
        "out": out,
        "type": "editdisplay",
        "flag": "g" + (move if move != "@@" else ""),
    }
    _adapter, decoded, media = read(_export([dict(script, ableFlag=True)]), "r.json")
    piece = decoded.pieces[0]
    rule = piece.body.rules[0].model_copy(update={"flags": flags})
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"rules": [rule]})})
    written = json.loads(convert_piece(piece, "risu.regex", media).data)["data"][0]
    # no flags are written d (the first match only), as RisuAI compiles an empty flag as g
    assert risu_compiled(written) == (flags or "d")


def test_flag_tokens_are_trimmed_as_javascript_trims_them():
    # RisuAI trims each token with String.prototype.trim (scripts.ts: `p1.split(',').map((v) => v.trim())`):
    # a BOM around `move_top` is trimmed, so the move drops the first g; U+001C is kept, so no order.
    from bunzai.adapters.risu.regex_scripts import parse_flag

    assert parse_flag("g<\ufeffmove_top>", True) == ("u", ["move_top"])
    assert parse_flag("g<\x1corder 5>", True) == ("g", ["\x1corder 5"])
