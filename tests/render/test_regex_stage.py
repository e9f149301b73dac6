"""The regex stage: prompt-only rules run in the regex lab's engine, at their placement and depth."""

from __future__ import annotations

from bunzai.render.macro_eval import MacroContext
from bunzai.render.render import apply_prompt_regex


def part(role, content, depth, index):
    return {
        "role": role,
        "content": content,
        "block": "chatHistory",
        "source": f"chat:{index}",
        "pointer": f"chat:{index}",
        "chat_index": index,
        "depth": depth,
    }


def rules(**rule):
    base = {
        "pattern": "secret",
        "flags": "g",
        "replacement": "[{{user}}]",
        "placements": ["user_input"],
        "prompt_only": True,
    }
    return [{"id": "r", "body": {"rules": [dict(base, **rule)]}}]


PARTS = [part("user", "a secret", 2, 0), part("assistant", "secret too", 1, 1), part("user", "secret again", 0, 2)]


def test_prompt_only_rule_applies_to_its_placement_within_depth() -> None:
    out, report = apply_prompt_regex(PARTS, rules(max_depth=1), MacroContext(user="Ann"))
    assert [p["content"] for p in out] == ["a secret", "secret too", "[Ann] again"]
    assert report[0]["applied_to"] == ["chat:2"]


def test_display_and_stored_rules_leave_the_prompt_alone() -> None:
    for rule in ({"markdown_only": True}, {"prompt_only": False}, {"disabled": True}):
        out, report = apply_prompt_regex(PARTS, rules(**rule), MacroContext())
        assert [p["content"] for p in out] == [p["content"] for p in PARTS]
        assert report[0]["skipped"]


def test_a_runaway_rule_is_reported_on_its_row_and_the_next_rule_still_runs() -> None:
    # (a+)+$ backtracks catastrophically on a's and a '!': the engine stops it (regex_timeout);
    # the render keeps its other rules and its text, as for a rule that does not compile
    parts = [part("user", "a" * 40 + "! secret", 0, 0)]
    runaway = dict(rules()[0]["body"]["rules"][0], pattern="(a+)+$", flags="")
    sets = [{"id": "r", "body": {"rules": [runaway, rules()[0]["body"]["rules"][0]]}}]
    out, report = apply_prompt_regex(parts, sets, MacroContext(user="Ann"))
    assert "ran out of time" in report[0]["error"]
    assert report[1]["applied_to"] == ["chat:0"]
    assert out[0]["content"] == "a" * 40 + "! [Ann]"


def test_a_rule_that_runs_away_part_way_is_left_out_whole() -> None:
    # the first message is short enough to finish; the second makes the same rule run away:
    # its change to the first is taken back, as if it had never run
    parts = [part("user", "aaa", 1, 0), part("user", "a" * 40 + "!", 0, 1)]
    runaway = dict(rules()[0]["body"]["rules"][0], pattern="(a+)+$", flags="", replacement="Z")
    out, report = apply_prompt_regex(parts, [{"id": "r", "body": {"rules": [runaway]}}], MacroContext())
    assert "ran out of time" in report[0]["error"] and report[0]["applied_to"] == []
    assert [p["content"] for p in out] == ["aaa", "a" * 40 + "!"]
