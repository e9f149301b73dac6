"""Promptbook capabilities: phases, cards, reads and together groups; every decoder rule is enforced on preview."""

from __future__ import annotations

import pytest

from bundle_support import edited, preview, refusal


def _phase(phase_id: str, stage: str, **fields) -> dict:
    base = {"id": phase_id, "name": "", "stage": stage, "enabled": True, "preset": None, "cards": [], "agent": "",
            "model": "", "reply_token_budget": None, "condition": None, "reads": [], "together": None}
    return base | fields


@pytest.fixture
def book() -> dict:
    from bunzai.model import dump_piece
    from bunzai.validate import validate_piece

    return dump_piece(validate_piece({"kind": "promptbook", "id": "deep", "name": "Deep thought", "body": {"phases": [
        _phase("plan", "private"), _phase("reply", "reply", reads=["plan"]), _phase("summary", "after", reads=["reply"])]}}))


def _ids(piece: dict) -> list[str]:
    return [phase["id"] for phase in piece["body"]["phases"]]


def test_settings_update(book) -> None:
    result = preview("promptbook.settings.update", book, {"description": "Plan, reply, summarise."})
    assert result.changes == [{"op": "replace", "path": "/body/description", "before": "", "after": "Plan, reply, summarise."}]


def test_phases_add_goes_last_in_its_stage_by_default(book) -> None:
    result = preview("promptbook.phases.add", book, {"phases": [{"id": "critique", "stage": "private", "reads": ["plan"]}]})
    assert _ids(result.after) == ["plan", "critique", "reply", "summary"]
    assert result.after == edited(book, lambda p: p["body"]["phases"].insert(1, _phase("critique", "private", reads=["plan"])))
    assert [c["path"] for c in result.changes] == ["/body/phases"] and result.warnings == []


def test_phases_add_refuses_a_second_reply_with_the_rule_named(book) -> None:
    error = refusal("promptbook.phases.add", book, {"phases": [{"id": "reply2", "stage": "reply"}]})
    assert error.code == "invalid_promptbook" and error.details["rule"] == "reply_phase_count"
    assert error.message.startswith("reply_phase_count:")


def test_phases_add_refuses_a_private_phase_after_the_reply(book) -> None:
    error = refusal("promptbook.phases.add", book, {"phases": [{"id": "late", "stage": "private"}], "at": 3})
    assert error.details["rule"] == "phase_order"


def test_phases_update_renames_and_reads_follow(book) -> None:
    result = preview("promptbook.phases.update", book, {"id": "plan", "new_id": "outline", "model": "small", "reply_token_budget": 300})
    assert result.changes == [
        {"op": "replace", "path": "/body/phases/0/id", "before": "plan", "after": "outline"},
        {"op": "replace", "path": "/body/phases/0/model", "before": "", "after": "small"},
        {"op": "replace", "path": "/body/phases/0/reply_token_budget", "before": None, "after": 300},
        {"op": "replace", "path": "/body/phases/1/reads/0", "before": "plan", "after": "outline"},
    ]


def test_phases_update_refuses_a_condition_on_the_reply(book) -> None:
    assert refusal("promptbook.phases.update", book, {"id": "reply", "condition": "mood == 'sad'"}).details["rule"] == "reply_phase_count"


def test_phases_remove_is_refused_while_read_unless_reads_are_dropped(book) -> None:
    assert refusal("promptbook.phases.remove", book, {"ids": ["plan"]}).details["rule"] == "read_of_later_phase"
    result = preview("promptbook.phases.remove", book, {"ids": ["plan"], "drop_reads": True})
    assert _ids(result.after) == ["reply", "summary"] and result.after["body"]["phases"][0]["reads"] == []
    assert result.warnings == ["phase 'reply' no longer reads 'plan'"]


def test_phases_reorder_is_refused_when_a_read_would_come_first(book) -> None:
    two = preview("promptbook.phases.add", book, {"phases": [{"id": "muse", "stage": "private"}]}).after
    moved = preview("promptbook.phases.reorder", two, {"move": "muse", "to": 0})
    assert _ids(moved.after) == ["muse", "plan", "reply", "summary"]
    assert refusal("promptbook.phases.reorder", book, {"order": ["reply", "plan", "summary"]}).details["rule"] == "phase_order"


def test_cards_update_adds_and_removes_cards(book) -> None:
    added = preview("promptbook.cards.update", book, {"phase": "reply", "action": "add", "cards": ["seraphina", "seraphina"]})
    assert added.changes == [{"op": "replace", "path": "/body/phases/1/cards", "before": [], "after": ["seraphina"]}]
    removed = preview("promptbook.cards.update", added.after, {"phase": "reply", "action": "remove", "cards": ["seraphina", "ghost"]})
    assert removed.after == book and removed.warnings == ["phase 'reply' cards: 'ghost' was not listed"]


def test_reads_update_refuses_reading_a_later_phase(book) -> None:
    error = refusal("promptbook.reads.update", book, {"phase": "plan", "action": "add", "phases": ["summary"]})
    assert error.code == "invalid_promptbook" and error.details["rule"] == "read_of_later_phase"
    result = preview("promptbook.reads.update", book, {"phase": "summary", "action": "add", "phases": ["plan"], "at": 0})
    assert result.changes == [{"op": "replace", "path": "/body/phases/2/reads", "before": ["reply"], "after": ["plan", "reply"]}]


def test_together_groups_join_and_dissolve(book) -> None:
    two = preview("promptbook.phases.add", book, {"phases": [{"id": "muse", "stage": "private"}]}).after
    joined = preview("promptbook.together.update", two, {"group": "think", "phases": ["plan", "muse"]})
    assert [p["together"] for p in joined.after["body"]["phases"]] == ["think", "think", None, None]
    dissolved = preview("promptbook.together.update", joined.after, {"group": "think", "action": "dissolve"})
    assert dissolved.after == two


def test_together_groups_refuse_a_lone_member_or_the_reply(book) -> None:
    assert refusal("promptbook.together.update", book, {"group": "solo", "phases": ["plan"]}).details["rule"] == "invalid_together_group"
    assert refusal("promptbook.together.update", book, {"group": "g", "phases": ["plan", "reply"]}).details["rule"] == "invalid_together_group"
