"""lint runs a RisuAI set as RisuAI runs it (src/ts/process/scripts.ts, processScriptFull): the
flag field's `<order N>` sorts the scripts, highest N first (`parsedScripts.sort((a, b) =>
b.order - a.order)`, N read by parseInt, a stable sort), and every other token is one of the
script's actions, which put it on the test-first path, `<no_end_nl>` keeping the newline off an
OUT ending in `>` (executeScript), as `try` runs one rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from node_tables import node_results

from bunzai.model.regex import RegexRule
from bunzai.regexlab.lint import lint_set, run_order


def _rule(name: str, pattern: str, replacement: str, tokens: list[str] = (), cbs: bool = False) -> dict:
    rule = RegexRule(
        name=name,
        pattern=pattern,
        replacement=replacement,
        flags="g",
        placements=["ai_output"],
        substitute_macros="raw" if cbs else "none",
        extensions={"risuai": {"flag_tokens": list(tokens)}} if tokens else {},
    )
    return rule.model_dump(mode="json")


def _risu_set(*rules: dict) -> dict:
    return {
        "kind": "regex",
        "id": "s",
        "name": "s",
        "body": {"rules": list(rules)},
        "original": {"format": "risu.regex", "document": None},
    }


def _shadowed(report: dict) -> list[tuple[str, int]]:
    return [(f["name"], f["after"]) for f in report["findings"] if f["kind"] == "never_matches"]


STRIP = ("Strip tags", "<[^>]+>", "")
BOLD = ("Bold", "<b>(.+?)</b>", "**$1**")


def test_in_list_order_the_tag_stripper_shadows_the_bold_rule() -> None:
    assert _shadowed(lint_set(_risu_set(_rule(*STRIP), _rule(*BOLD)))) == [("Bold", 0)]


def test_a_higher_order_runs_first_so_nothing_is_shadowed() -> None:
    report = lint_set(_risu_set(_rule(*STRIP), _rule(*BOLD, tokens=["order 5"])))
    assert _shadowed(report) == []


def test_a_lower_order_runs_last_and_is_shadowed_by_what_runs_before_it() -> None:
    report = lint_set(_risu_set(_rule(*BOLD, tokens=["order -1"]), _rule(*STRIP)))
    assert _shadowed(report) == [("Bold", 1)]


ORDERS = [
    ([[], [], []], [0, 1, 2]),
    ([[], ["order 2"], ["order 1"]], [1, 2, 0]),
    ([["order 1"], ["order 1"], []], [0, 1, 2]),  # stable: ties keep the list order
    ([["order 3", "order 1"], ["order 2"], []], [1, 0, 2]),  # the last <order> of a field wins
    ([[], ["order 0x10"], ["order 12abc"]], [1, 2, 0]),  # parseInt: hexadecimal, digits up to a letter
    ([[], ["order \ufeff7"], []], [1, 0, 2]),  # parseInt skips JavaScript's whitespace, U+FEFF too
    ([[], ["order \x1c7"], []], [0, 1, 2]),  # ... and not U+001C: NaN, equal to every order
    ([["order -2"], ["cbs"], ["order 1e3"]], [2, 1, 0]),  # 1e3 is 1; a token with no order is 0
    ([["order 1"], ["order x"], ["order 5"]], [0, 1, 2]),  # NaN between 1 and 5: the sort leaves them be
]


@pytest.mark.parametrize(("tokens", "expected"), ORDERS)
def test_run_order_is_risus(tokens: list[list[str]], expected: list[int]) -> None:
    rules = [_rule(f"r{i}", "a", "b", these) for i, these in enumerate(tokens)]
    assert run_order(rules, "risuai") == expected


def test_the_order_table_is_what_risu_does() -> None:
    assert node_results(Path(__file__).with_name("risu_order.js"), [t for t, _ in ORDERS]) == [e for _, e in ORDERS]


def test_a_sillytavern_set_runs_in_list_order() -> None:
    rules = [_rule("a", "a", "b"), _rule("b", "a", "b", ["order 5"])]
    assert run_order(rules, "sillytavern") == [0, 1]


def test_an_inject_takes_the_matches_out_so_the_next_rule_finds_none() -> None:
    # without its action the earlier rule replaces "secret" by itself, and the later one still matches
    keep = _rule("Keep", "secret", "secret", ["inject"])
    assert _shadowed(lint_set(_risu_set(keep, _rule("Hide", "secret", "")))) == [("Hide", 0)]
    plain = _rule("Keep", "secret", "secret")
    assert _shadowed(lint_set(_risu_set(plain, _rule("Hide", "secret", "")))) == []


def test_an_out_ending_in_a_bracket_gets_its_newline_unless_no_end_nl() -> None:
    # RisuAI gives OUT ">" a newline, so "a>" becomes "a>\n", which ^.>$ no longer matches
    later = _rule("Ends", "^.>$", "")
    assert _shadowed(lint_set(_risu_set(_rule("Bracket", ">", ">"), later))) == [("Ends", 0)]
    kept = _rule("Bracket", ">", ">", ["no_end_nl"])
    assert _shadowed(lint_set(_risu_set(kept, later))) == []


def test_lint_of_a_risu_file_reads_its_order(bunzai, tmp_path) -> None:
    path = tmp_path / "regexscript_export.json"
    scripts = [
        {"comment": "Strip tags", "in": "<[^>]+>", "out": "", "type": "editoutput"},
        {"comment": "Bold", "in": "<b>(.+?)</b>", "out": "**$1**", "type": "editoutput", "flag": "g<order 5>"},
    ]
    scripts[1]["ableFlag"] = True
    path.write_text(json.dumps({"type": "regex", "data": scripts}))
    report = bunzai("regex-lab", "lint", str(path), check=True).json
    assert report["platform"] == "risuai" and _shadowed(report) == []
    scripts[1]["ableFlag"] = False  # RisuAI reads no flag field then: no order, list order
    path.write_text(json.dumps({"type": "regex", "data": scripts}))
    assert _shadowed(bunzai("regex-lab", "lint", str(path), check=True).json) == [("Bold", 0)]


def _order_findings(report: dict) -> list[tuple[str, str]]:
    return [(f["name"], f["message"]) for f in report["findings"] if f["kind"] == "order_not_a_number"]


def test_an_order_with_no_number_is_warned_about() -> None:
    # parseInt("x") is NaN, and b.order - a.order with NaN sorts as a tie with every rule
    report = lint_set(_risu_set(_rule(*STRIP, tokens=["order 1"]), _rule(*BOLD, tokens=["order x"])))
    [(name, message)] = _order_findings(report)
    assert name == "Bold"
    assert "<order x>" in message and "NaN" in message and "equal to every" in message
    assert "whole number" in message


@pytest.mark.parametrize(("token", "read"), [("order 2.5", "2"), ("order 12abc", "12"), ("order 1e3", "1")])
def test_an_order_read_as_another_number_says_which(token: str, read: str) -> None:
    [(_, message)] = _order_findings(lint_set(_risu_set(_rule(*STRIP, tokens=[token]))))
    assert f"<{token}>" in message and f"as <order {read}>" in message


@pytest.mark.parametrize("token", ["order 5", "order -1", "order  7", "order +3"])
def test_a_whole_number_is_no_finding(token: str) -> None:
    assert _order_findings(lint_set(_risu_set(_rule(*STRIP, tokens=[token])))) == []


def test_only_the_order_risu_uses_is_judged() -> None:
    # the last <order> of a field wins: an earlier unreadable one is never used
    assert _order_findings(lint_set(_risu_set(_rule(*STRIP, tokens=["order x", "order 2"])))) == []
    assert len(_order_findings(lint_set(_risu_set(_rule(*STRIP, tokens=["order 2", "order x"]))))) == 1


def test_a_sillytavern_set_has_no_order_to_judge() -> None:
    piece = _risu_set(_rule(*STRIP, tokens=["order x"]))
    piece["original"] = {"format": "sillytavern.regex", "document": None}
    assert _order_findings(lint_set(piece)) == []
