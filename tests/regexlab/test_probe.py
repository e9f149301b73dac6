"""Warnings where regex content enters: compile and time problems, worded per rule, bounded per piece."""

from __future__ import annotations

from bunzai import limits
from bunzai.regexlab import probe


def piece(*patterns: str) -> dict:
    return {
        "kind": "regex",
        "id": "p",
        "body": {"rules": [{"name": f"r{i}", "pattern": p, "flags": "g"} for i, p in enumerate(patterns)]},
    }


def test_a_broken_and_a_catastrophic_pattern_are_warned_about_by_rule() -> None:
    warnings = probe.piece_probe_warnings(piece("fine", "(unclosed", "(\\w+\\s?)+$"))
    assert len(warnings) == 2
    assert warnings[0].startswith("rule 'r1': the pattern does not compile")
    assert warnings[1].startswith("rule 'r2': the pattern backtracks catastrophically")


def test_other_kinds_get_no_warning() -> None:
    assert probe.piece_probe_warnings({"kind": "character", "body": {}}) == []


def test_a_piece_is_probed_up_to_the_limit_and_the_rest_are_named(monkeypatch) -> None:
    monkeypatch.setattr(limits, "REGEX_PROBE_MAX_RULES", 2)
    warnings = probe.piece_probe_warnings(piece("a", "b", "(unclosed", "(x"))
    assert warnings == ["2 rules past the first 2 were not probed"]


def test_a_sound_pattern_over_the_probe_message_is_quiet() -> None:
    assert probe.rule_problems('\\*(.+?)\\*|"[^"]*"|<[^>]+>', "g") == []


def test_a_capability_draft_warns_and_never_refuses_a_pattern_that_does_not_compile() -> None:
    from bunzai.capabilities.discovery import find_capability
    from bunzai.capabilities.runner import run_capability

    piece = {"kind": "regex", "id": "tidy", "name": "Tidy", "body": {"rules": []}}
    cap = find_capability("regex.rules.add")
    draft = run_capability(
        cap, piece, {"rules": [{"name": "Bad", "pattern": "(unclosed", "placements": ["ai_output"]}]}, baseline="x"
    )
    warnings = [w for op in draft["operations"] for w in op["warnings"]]
    assert any("'Bad': the pattern does not compile in JavaScript" in w for w in warnings)
    assert draft["proposed"]["body"]["rules"][0]["pattern"] == "(unclosed"
