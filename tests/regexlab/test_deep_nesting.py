"""A pattern nested deeper than bunzai's reader can follow is explained and linted as far as
it reads, never an `internal` crash (the engine still judges whether it compiles)."""

from __future__ import annotations

import json

import pytest

from bunzai import limits
from bunzai.regexlab.explain import explain_pattern
from bunzai.regexlab.lint import lint_set


@pytest.mark.parametrize("depth", [limits.REGEX_READ_MAX_DEPTH + 1, 240, 1200])
def test_explain_of_a_deeply_nested_pattern_says_it_is_unreadable(depth: int) -> None:
    told = explain_pattern("(" * depth + "a*" + ")" * depth)
    assert told["clauses"] == [] and "too deep to read" in told["unreadable"]


@pytest.mark.parametrize("depth", [240, 1200])
def test_lint_of_a_deeply_nested_rule_reports_without_crashing(depth: int) -> None:
    rule = {"pattern": "(?:" * depth + "a" + ")" * depth, "flags": "gi", "replacement": "", "placements": ["ai_output"]}
    linted = lint_set({"kind": "regex", "id": "deep", "body": {"rules": [rule]}})
    assert linted["rules"] == 1 and all(f["kind"] != "internal" for f in linted["findings"])


def test_cli_explain_of_a_deep_pattern_exits_cleanly(bunzai) -> None:
    shown = bunzai("regex-lab", "explain", "(" * 300 + "a" + ")" * 300, check=True)
    assert json.loads(shown.stdout)["unreadable"]


def test_a_pattern_nested_to_the_limit_is_read() -> None:
    depth = limits.REGEX_READ_MAX_DEPTH
    told = explain_pattern("(" * depth + "a*" + ")" * depth)
    assert told["clauses"] and "unreadable" not in told


@pytest.mark.parametrize("depth", [limits.REGEX_READ_MAX_DEPTH, 150])
def test_lint_of_deeply_nested_quantifiers_reports_without_crashing(depth: int) -> None:
    """Nested quantifiers are what lint probes for backtracking: its samples walk the tree too."""
    rule = {
        "pattern": "(?:" * depth + "a+" + ")+" * depth,
        "flags": "g",
        "replacement": "",
        "placements": ["ai_output"],
    }
    linted = lint_set({"kind": "regex", "id": "deep", "body": {"rules": [rule]}})
    assert linted["rules"] == 1 and all(f["kind"] != "internal" for f in linted["findings"])
