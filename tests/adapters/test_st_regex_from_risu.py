"""A RisuAI regex set written for SillyTavern runs as it ran in RisuAI: in its `<order N>` run
order (RisuAI sorts by it; SillyTavern runs list order), and an editprocess (request) rule runs
on the prompt as a prompt-only rule instead of never."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from st_side_formats_support import read_json, round_trip, undeclared

FORMAT = "sillytavern.regex"


def _risu(scripts: list[dict]) -> dict:
    return {"type": "regex", "data": scripts}


def _script(name: str, flag: str = "g", kind: str = "editoutput", able: bool = True) -> dict:
    return {"comment": name, "in": name, "out": f"<{name}>", "type": kind, "flag": flag, "ableFlag": able}


def _risu_run_order(scripts: list[dict]) -> list[str]:
    """RisuAI's processScriptFull: order read from `<order N>` when ableFlag, stable sort, highest first."""

    def order(script: dict) -> int:
        found = re.findall(r"order\s+(-?\d+)", script["flag"]) if script["ableFlag"] else []
        return int(found[-1]) if found else 0

    return [script["comment"] for script in sorted(scripts, key=lambda script: -order(script))]


def _written(document: dict):
    piece = read_json(document, "regexscript_export.json").pieces[0]
    crossing = round_trip(piece, FORMAT)
    return json.loads(crossing.data), crossing


def test_rules_with_an_order_token_are_written_where_risuai_runs_them():
    scripts = [
        _script("plain"),
        _script("late", "g<order -1>"),
        _script("early", "gi<order 5>"),
        _script("middle", "<order 2>,<cbs>"),
        _script("ignored", "<order 9>", able=False),
        _script("also-early", "<order 5>"),
    ]
    written, crossing = _written(_risu(scripts))
    assert [script["scriptName"] for script in written] == _risu_run_order(scripts)
    assert [script["scriptName"] for script in written] == [
        "early",
        "also-early",
        "middle",
        "plain",
        "ignored",
        "late",
    ]
    assert [loss.pointer for loss in crossing.losses if loss.code == "regex.rule.order.risu"] == ["/body/rules"]
    assert undeclared(crossing) == []


def test_a_set_without_order_tokens_keeps_its_order_and_declares_nothing_about_it():
    scripts = [_script("one"), _script("two", "gi<move_top>"), _script("three")]
    written, crossing = _written(_risu(scripts))
    assert [script["scriptName"] for script in written] == ["one", "two", "three"]
    assert "regex.rule.order.risu" not in {loss.code for loss in crossing.losses}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3) | st.none(), st.booleans()), min_size=1, max_size=8))
def test_any_order_tokens_are_written_in_risuais_run_order(orders):
    scripts = [
        _script(f"r{index}", "g" if order is None else f"g<order {order}>", able=able)
        for index, (order, able) in enumerate(orders)
    ]
    written, crossing = _written(_risu(scripts))
    names = [written["scriptName"]] if isinstance(written, dict) else [script["scriptName"] for script in written]
    assert names == _risu_run_order(scripts)
    assert undeclared(crossing) == []


def test_an_editprocess_rule_runs_on_the_prompt_only():
    written, crossing = _written(_risu([_script("request", kind="editprocess"), _script("output")]))
    request = written[0]
    assert (request["placement"], request["promptOnly"], request["markdownOnly"]) == ([1, 2], True, False)
    codes = [loss.code for loss in crossing.losses]
    assert codes.count("regex.rule.placement.request") == 2  # the placements, and prompt only
    assert "regex.rule.placement.unsupported" not in codes
    assert undeclared(crossing) == []


def test_an_edittrans_rule_still_has_no_sillytavern_placement():
    written, crossing = _written(_risu([_script("translate", kind="edittrans"), _script("output")]))
    assert written[0]["placement"] == [] and written[0]["promptOnly"] is False
    assert "regex.rule.placement.unsupported" in {loss.code for loss in crossing.losses}
