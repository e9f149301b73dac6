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
