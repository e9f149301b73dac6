"""Regex-set capabilities: settings and the rule lifecycle; rules are checked as data and never run.

SillyTavern ships no regex scripts (see the corpus SOURCES.md), so the set is built here.
"""

from __future__ import annotations

import pytest

from bundle_support import edited, preview, refusal


@pytest.fixture
def regex_set() -> dict:
    from bunzai.model import dump_piece
    from bunzai.validate import validate_piece

    return dump_piece(
        validate_piece(
            {
                "kind": "regex",
                "id": "tidy",
                "name": "Tidy",
                "body": {
                    "rules": [
                        {
                            "id": "r1",
                            "name": "Strip OOC",
                            "pattern": "\\(OOC:.*?\\)",
                            "flags": "gi",
                            "placements": ["ai_output"],
                        },
                        {
                            "id": "r2",
                            "name": "Em dash",
                            "pattern": "--",
                            "replacement": "—",
                            "flags": "g",
                            "placements": ["ai_output", "user_input"],
                        },
                    ]
                },
            }
        )
    )


def test_settings_update_renames_the_set(regex_set) -> None:
    result = preview("regex.settings.update", regex_set, {"name": "Tidy up", "description": "Cleans replies."})
    assert result.after == edited(
        regex_set, lambda p: (p.update(name="Tidy up"), p["body"].update(description="Cleans replies."))
    )
    assert [c["path"] for c in result.changes] == ["/body/description", "/name"] and result.warnings == []


def test_rules_add_inserts_a_rule_with_an_id_from_its_name(regex_set) -> None:
    result = preview(
        "regex.rules.add",
        regex_set,
        {
            "rules": [
                {
                    "name": "Hide thoughts",
                    "pattern": "<think>[\\s\\S]*?</think>",
                    "placements": ["display"],
                    "markdown_only": True,
                }
            ],
            "before": "r2",
        },
    )
    new = result.after["body"]["rules"][1]
    assert (new["id"], new["name"], new["markdown_only"]) == ("hide-thoughts", "Hide thoughts", True)
    assert result.after["body"]["rules"][0] == regex_set["body"]["rules"][0]
    assert result.after["body"]["rules"][2] == regex_set["body"]["rules"][1]
    assert result.changes == [{"op": "add", "path": "/body/rules/1", "after": new}]
    assert result.warnings == []


def test_rules_add_warns_about_catastrophic_patterns_and_missing_placements(regex_set) -> None:
    result = preview("regex.rules.add", regex_set, {"rules": [{"name": "Bad", "pattern": "(a+)+$"}]})
    assert result.warnings == [
        "rule 'Bad': the pattern nests quantifiers (like (a+)+), which can backtrack catastrophically",
        "rule 'Bad': the pattern backtracks catastrophically: (a+)+ nests quantifiers, and a crafted 31-character input"
        " ran out of time (0.1 s)",
        "rule 'Bad' has no placement, so it runs on nothing",
    ]


@pytest.mark.parametrize("flags,problem", [("gg", "given twice"), ("uv", "cannot be used together")])
def test_rules_refuse_flags_javascript_refuses(regex_set, flags, problem) -> None:
    assert (
        problem
        in refusal(
            "regex.rules.add",
            regex_set,
            {"rules": [{"name": "x", "pattern": "x", "flags": flags, "placements": ["display"]}]},
        ).message
    )
    assert problem in refusal("regex.rules.update", regex_set, {"rule": "r1", "flags": flags}).message


def test_rules_refuse_unknown_placements_and_flags_at_input(regex_set) -> None:
    from pydantic import ValidationError

    from bunzai.capabilities.discovery import find_capability

    model = find_capability("regex.rules.update").input_model
    with pytest.raises(ValidationError):
        model.model_validate({"rule": "r1", "placements": ["everywhere"]})
    with pytest.raises(ValidationError):
        find_capability("regex.rules.add").input_model.model_validate({"rules": [{"flags": "x"}]})


def test_rules_update_changes_only_the_fields_given(regex_set) -> None:
    result = preview(
        "regex.rules.update", regex_set, {"rule": "Em dash", "replacement": " — ", "min_depth": 1, "max_depth": 0}
    )
    assert result.changes == [
        {"op": "replace", "path": "/body/rules/1/max_depth", "before": None, "after": 0},
        {"op": "replace", "path": "/body/rules/1/min_depth", "before": None, "after": 1},
        {"op": "replace", "path": "/body/rules/1/replacement", "before": "—", "after": " — "},
    ]
    assert result.warnings == ["rule 'Em dash': min_depth 1 is above max_depth 0, so it never runs"]


def test_rules_reorder_and_remove(regex_set) -> None:
    moved = preview("regex.rules.reorder", regex_set, {"move": "r2", "to": 0})
    assert [r["id"] for r in moved.after["body"]["rules"]] == ["r2", "r1"]
    assert moved.changes == [{"op": "move", "from": "/body/rules/1", "path": "/body/rules/0"}]  # told by id
    ordered = preview("regex.rules.reorder", regex_set, {"order": [1, "r1"]})
    assert ordered.after == moved.after
    removed = preview("regex.rules.remove", regex_set, {"rules": ["r1"]})
    assert removed.after == edited(regex_set, lambda p: p["body"].update(rules=p["body"]["rules"][1:]))
    assert removed.changes == [{"op": "remove", "path": "/body/rules/0", "before": regex_set["body"]["rules"][0]}]


def test_rules_are_addressed_unambiguously(regex_set) -> None:
    twice = edited(regex_set, lambda p: p["body"]["rules"].append(dict(p["body"]["rules"][0], id="r3")))
    assert "2 rules are named" in refusal("regex.rules.remove", twice, {"rules": ["Strip OOC"]}).message
    assert "no rule 'r9'" in refusal("regex.rules.update", regex_set, {"rule": "r9", "name": "x"}).message
