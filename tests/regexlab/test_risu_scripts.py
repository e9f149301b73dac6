"""The lab runs a RisuAI script as RisuAI runs it (risu_cases.json): a flag field's tokens but
`<order N>` (`<cbs>` and `<no_end_nl>` too) put the script on the test-first path, where a
sticky replace starts where `reg.test` stopped and a text with no match keeps its macros
unexpanded; a move drops one `g` of the flags, and one left makes it move every match after the
test's. The expected results were produced by risu_scripts.js, RisuAI's own statements run in
node; where `node` is on PATH it is run on the table again and must agree, so the checked-in
values cannot drift from RisuAI's code."""

from __future__ import annotations

import json
from pathlib import Path

import node_tables
import pytest

from bunzai.adapters.risu.regex_scripts import typed_flags
from bunzai.errors import BunzaiError
from bunzai.regexlab.lab import try_pattern

HERE = Path(__file__).resolve().parent
CASES = json.loads((HERE / "risu_cases.json").read_text(encoding="utf-8"))


def lab_args(script: dict) -> tuple[list[str], dict]:
    """The `regex-lab try` arguments and the try_pattern keywords for a script, as the CLI
    composes them: `--flags` only where RisuAI reads the flag field (ableFlag)."""
    options = ["--platform", "risuai", "--replace", script["out"]]
    if not script.get("ableFlag"):
        return options, {}
    typed = typed_flags(script["flag"], script["out"])
    keywords = {
        "flags": typed["flags"],
        "substitute": "raw" if typed["cbs"] else "none",
        "no_end_newline": typed["no_end_newline"],
        "actions": typed["actions"],
    }
    return [*options, "--flags", script["flag"]], keywords


def run_in_lab(case: dict) -> dict:
    script = case["script"]
    try:
        tried = try_pattern(
            script["in"],
            case["text"],
            replace=script["out"],
            platform="risuai",
            macros=case.get("macros"),
            **lab_args(script)[1],
        )
    except BunzaiError as error:
        assert error.code == "invalid_regex"
        return {"error": True}
    return {"result": tried["result"]}


def test_the_table_covers_both_paths_and_the_moves() -> None:
    flags = " ".join(case["script"]["flag"] for case in CASES)
    assert len(CASES) >= 40
    assert all(token in flags for token in ("<cbs>", "<no_end_nl>", "<order", "<sparkle>", "gg<move_top>", "y<"))


@pytest.mark.parametrize("case", CASES, ids=[case["why"] for case in CASES])
def test_the_lab_runs_a_script_as_risuai_does(case: dict) -> None:
    assert run_in_lab(case) == case["expected"]


@pytest.fixture(scope="module")
def node_results() -> list[dict]:
    return node_tables.node_results(HERE / "risu_scripts.js", CASES)


@pytest.mark.parametrize("index", range(len(CASES)), ids=[case["why"] for case in CASES])
def test_risuais_code_agrees_with_the_checked_in_table(node_results: list[dict], index: int) -> None:
    assert node_results[index] == CASES[index]["expected"]


@pytest.mark.parametrize(
    "why",
    [
        "<cbs> alone: test-first, a text with no match is not expanded again",
        "y <no_end_nl>: the replacement starts where the test stopped",
        "gg<move_top>: one g dropped, every match after the test's moved",
        "@@move_bottom with gg: global",
        "@@move_top, no custom flags: g dropped",
    ],
)
def test_regex_lab_try_gives_risuais_result_end_to_end(bunzai, why: str) -> None:
    case = next(case for case in CASES if case["why"] == why)
    script = case["script"]
    macros = [f"--macro={name}={value}" for name, value in (case.get("macros") or {}).items()]
    options = lab_args(script)[0]
    tried = bunzai("regex-lab", "try", script["in"], "--text", case["text"], *options, *macros, check=True).json
    assert tried["result"] == case["expected"]["result"]


def test_try_says_which_tokens_put_the_rule_on_the_test_first_path(bunzai) -> None:
    tried = bunzai(
        "regex-lab",
        "try",
        "a",
        "--text",
        "aab",
        "--replace",
        "X",
        "--platform",
        "risuai",
        "--flags",
        "y<cbs>",
        check=True,
    ).json
    assert tried["flags"] == "y" and tried["result"] == "aXb"
    (said,) = [note for note in tried["notes"] if "test-first" in note]
    assert "<cbs>" in said and "right after the first match" in said
