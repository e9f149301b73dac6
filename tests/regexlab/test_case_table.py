"""The case table (cases.json): patterns, flags, inputs and replacements whose expected results
were produced by a JavaScript runtime (node) and are checked in. bunzai's embedded engine
must give the same; where `node` is on PATH, node is run on the table too and must agree,
so the checked-in values cannot drift from JavaScript."""

from __future__ import annotations

import json
from pathlib import Path

import node_tables
import pytest

from bunzai.errors import BunzaiError
from bunzai.regexlab import engine
from bunzai.regexlab.lab import try_pattern

HERE = Path(__file__).resolve().parent
CASES = json.loads((HERE / "cases.json").read_text(encoding="utf-8"))


def run_in_bunzai(case: dict) -> dict:
    if case["op"] == "platform":
        try:
            tried = try_pattern(
                case["find"],
                case["text"],
                replace=case["replace"],
                platform=case["platform"],
                trim_strings=case.get("trims", ()),
                macros=case.get("macros"),
                substitute=case.get("substitute", "none"),
            )
        except BunzaiError as error:
            assert error.code == "invalid_regex"
            return {"error": True}
        return {"result": tried["result"]}
    request = {
        "pattern": case["pattern"],
        "flags": case["flags"],
        "text": case["text"],
        "convention": "javascript",
        "replacement": case.get("replace", ""),
        "trims": [],
        "macros": {},
        "substitute": "none",
    }
    if case["op"] == "replace":
        answer = engine.call(dict(request, op="replace"))
        return {"error": True} if "error" in answer else {"result": answer["result"]}
    answer = engine.call(dict(request, op="match", max=1000))
    if "error" in answer:
        return {"error": True}
    return {
        "matches": [
            {"index": m["index"], "match": m["match"], "groups": m["groups"], "named": m["named"]}
            for m in answer["matches"]
        ]
    }


def test_the_table_has_at_least_80_cases_of_every_sort() -> None:
    assert len(CASES) >= 80
    assert {case["op"] for case in CASES} == {"match", "replace", "platform"}
    assert all("expected" in case for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["why"] for case in CASES])
def test_the_embedded_engine_gives_what_javascript_gives(case: dict) -> None:
    assert run_in_bunzai(case) == case["expected"]


@pytest.fixture(scope="module")
def node_results() -> list[dict]:
    return node_tables.node_results(HERE / "node_cases.js", CASES)


@pytest.mark.parametrize("index", range(len(CASES)), ids=[case["why"] for case in CASES])
def test_node_agrees_with_the_checked_in_table(node_results: list[dict], index: int) -> None:
    assert node_results[index] == CASES[index]["expected"]
