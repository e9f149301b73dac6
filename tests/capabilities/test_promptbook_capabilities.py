"""Promptbook capabilities: phases, cards, reads and together groups; every decoder rule is enforced on preview."""

from __future__ import annotations

import pytest

from bundle_support import edited, preview, refusal


def _phase(phase_id: str, stage: str, **fields) -> dict:
    base = {
        "id": phase_id,
        "name": "",
        "stage": stage,
        "enabled": True,
        "preset": None,
        "cards": [],
        "agent": "",
        "model": "",
        "reply_token_budget": None,
        "condition": None,
        "reads": [],
        "together": None,
        "uses": {kind: [] for kind in ("scripts", "skills", "tools", "dice", "regex", "trackers")},
    }
    return base | fields


@pytest.fixture
def book() -> dict:
    from bunzai.model import dump_piece
    from bunzai.validate import validate_piece

    return dump_piece(
        validate_piece(
            {
                "kind": "promptbook",
                "id": "deep",
                "name": "Deep thought",
                "body": {
                    "phases": [
                        _phase("plan", "private"),
                        _phase("reply", "reply", reads=["plan"]),
                        _phase("summary", "after", reads=["reply"]),
                    ]
                },
            }
        )
    )


def _ids(piece: dict) -> list[str]:
    return [phase["id"] for phase in piece["body"]["phases"]]


def test_settings_update(book) -> None:
    result = preview("promptbook.settings.update", book, {"description": "Plan, reply, summarise."})
    assert result.changes == [
        {"op": "replace", "path": "/body/description", "before": "", "after": "Plan, reply, summarise."}
    ]


def test_phases_add_goes_last_in_its_stage_by_default(book) -> None:
    result = preview(
        "promptbook.phases.add", book, {"phases": [{"id": "critique", "stage": "private", "reads": ["plan"]}]}
    )
    assert _ids(result.after) == ["plan", "critique", "reply", "summary"]
    assert result.after == edited(
        book, lambda p: p["body"]["phases"].insert(1, _phase("critique", "private", reads=["plan"]))
    )
    assert [c["path"] for c in result.changes] == ["/body/phases/1"] and result.warnings == []


def test_phases_add_refuses_a_second_reply_with_the_rule_named(book) -> None:
    error = refusal("promptbook.phases.add", book, {"phases": [{"id": "reply2", "stage": "reply"}]})
    assert error.code == "invalid_promptbook" and error.details["rule"] == "reply_phase_count"
    assert error.message.startswith("reply_phase_count:")


def test_phases_add_refuses_a_private_phase_after_the_reply(book) -> None:
    error = refusal("promptbook.phases.add", book, {"phases": [{"id": "late", "stage": "private"}], "at": 3})
    assert error.details["rule"] == "phase_order"


def test_phases_update_renames_and_reads_follow(book) -> None:
    result = preview(
        "promptbook.phases.update",
        book,
        {"id": "plan", "new_id": "outline", "model": "small", "reply_token_budget": 300},
    )
    assert result.changes == [
        {"op": "replace", "path": "/body/phases/0/id", "before": "plan", "after": "outline"},
        {"op": "replace", "path": "/body/phases/0/model", "before": "", "after": "small"},
        {"op": "replace", "path": "/body/phases/0/reply_token_budget", "before": None, "after": 300},
        {"op": "replace", "path": "/body/phases/1/reads/0", "before": "plan", "after": "outline"},
    ]


def test_phases_update_refuses_a_condition_on_the_reply(book) -> None:
    assert (
        refusal("promptbook.phases.update", book, {"id": "reply", "condition": "mood == 'sad'"}).details["rule"]
        == "reply_phase_count"
    )


def test_phases_remove_is_refused_while_read_unless_reads_are_dropped(book) -> None:
    assert refusal("promptbook.phases.remove", book, {"ids": ["plan"]}).details["rule"] == "read_of_later_phase"
    result = preview("promptbook.phases.remove", book, {"ids": ["plan"], "drop_reads": True})
    assert _ids(result.after) == ["reply", "summary"] and result.after["body"]["phases"][0]["reads"] == []
    assert result.warnings == ["phase 'reply' no longer reads 'plan'"]


def test_phases_reorder_is_refused_when_a_read_would_come_first(book) -> None:
    two = preview("promptbook.phases.add", book, {"phases": [{"id": "muse", "stage": "private"}]}).after
    moved = preview("promptbook.phases.reorder", two, {"move": "muse", "to": 0})
    assert _ids(moved.after) == ["muse", "plan", "reply", "summary"]
    assert (
        refusal("promptbook.phases.reorder", book, {"order": ["reply", "plan", "summary"]}).details["rule"]
        == "phase_order"
    )


def test_cards_update_adds_and_removes_cards(book) -> None:
    added = preview(
        "promptbook.cards.update", book, {"phase": "reply", "action": "add", "cards": ["seraphina", "seraphina"]}
    )
    assert added.changes == [{"op": "replace", "path": "/body/phases/1/cards", "before": [], "after": ["seraphina"]}]
    removed = preview(
        "promptbook.cards.update", added.after, {"phase": "reply", "action": "remove", "cards": ["seraphina", "ghost"]}
    )
    assert removed.after == book and removed.warnings == ["phase 'reply' cards: 'ghost' was not listed"]


def test_reads_update_refuses_reading_a_later_phase(book) -> None:
    error = refusal("promptbook.reads.update", book, {"phase": "plan", "action": "add", "phases": ["summary"]})
    assert error.code == "invalid_promptbook" and error.details["rule"] == "read_of_later_phase"
    result = preview(
        "promptbook.reads.update", book, {"phase": "summary", "action": "add", "phases": ["plan"], "at": 0}
    )
    assert result.changes == [{"op": "add", "path": "/body/phases/2/reads/0", "after": "plan"}]


def test_together_groups_join_and_dissolve(book) -> None:
    two = preview("promptbook.phases.add", book, {"phases": [{"id": "muse", "stage": "private"}]}).after
    joined = preview("promptbook.together.update", two, {"group": "think", "phases": ["plan", "muse"]})
    assert [p["together"] for p in joined.after["body"]["phases"]] == ["think", "think", None, None]
    dissolved = preview("promptbook.together.update", joined.after, {"group": "think", "action": "dissolve"})
    assert dissolved.after == two


def test_together_groups_refuse_a_lone_member_or_the_reply(book) -> None:
    assert (
        refusal("promptbook.together.update", book, {"group": "solo", "phases": ["plan"]}).details["rule"]
        == "invalid_together_group"
    )
    assert (
        refusal("promptbook.together.update", book, {"group": "g", "phases": ["plan", "reply"]}).details["rule"]
        == "invalid_together_group"
    )


_LIBRARY = {
    "dice": [{"id": "attack", "name": "Attack", "notation": "1d20+3"}],
    "skills": [{"id": "parry", "name": "Parry", "description": "when a blow comes", "instructions": "Parry."}],
}


def test_library_manage_puts_items_and_replaces_by_id(book) -> None:
    result = preview("promptbook.library.manage", book, {"put": _LIBRARY})
    library = result.after["body"]["library"]
    assert library["dice"] == _LIBRARY["dice"] and library["skills"] == _LIBRARY["skills"] and result.warnings == []
    again = preview(
        "promptbook.library.manage",
        result.after,
        {
            "put": {
                "dice": [{"id": "attack", "name": "Heavy attack", "notation": "2d10"}, {"id": "flee", "notation": "d6"}]
            }
        },
    )
    assert [(d["id"], d["notation"]) for d in again.after["body"]["library"]["dice"]] == [
        ("attack", "2d10"),
        ("flee", "d6"),
    ]
    assert again.warnings == ["dice item 'attack' is replaced"]


@pytest.mark.parametrize(
    ("put", "problem"),
    [
        ({"dice": [{"id": "x", "notation": "2d"}]}, "/put/dice/0/notation"),
        ({"dice": [{"id": "x", "notation": "5"}]}, "/put/dice/0/notation"),
        ({"tools": [{"id": "t", "parameters": {"type": "array"}}]}, "/put/tools/0/parameters"),
        ({"trackers": [{"id": "hp", "fields": [{"name": "hp"}, {"name": "hp"}]}]}, "/put/trackers/0"),
        ({"skills": [{"id": "Bad Id"}]}, "/put/skills/0/id"),
    ],
)
def test_library_manage_refuses_a_malformed_item(put, problem) -> None:
    from pydantic import ValidationError

    from bunzai.capabilities.discovery import find_capability

    with pytest.raises(ValidationError) as caught:
        find_capability("promptbook.library.manage").input_model.model_validate({"put": put})
    assert ["/" + "/".join(map(str, error["loc"])) for error in caught.value.errors()] == [problem]


def test_library_manage_refuses_nothing_to_do_and_an_absent_id(book) -> None:
    assert refusal("promptbook.library.manage", book, {}).code == "invalid_input"
    error = refusal("promptbook.library.manage", book, {"remove": {"skills": ["ghost"]}})
    assert "no skills item 'ghost'" in error.message


def test_library_manage_remove_warns_about_uses_or_drops_them(book) -> None:
    stocked = preview("promptbook.library.manage", book, {"put": _LIBRARY}).after
    used = preview("promptbook.uses.update", stocked, {"phase": "plan", "library": "dice", "ids": ["attack"]}).after
    kept = preview("promptbook.library.manage", used, {"remove": {"dice": ["attack"]}})
    assert kept.after["body"]["library"]["dice"] == [] and kept.after["body"]["phases"][0]["uses"]["dice"] == ["attack"]
    assert kept.warnings == [
        "phase 'plan' still uses dice 'attack', now missing; rehearse reports it (drop_uses takes it out)"
    ]
    dropped = preview("promptbook.library.manage", used, {"remove": {"dice": ["attack"]}, "drop_uses": True})
    assert dropped.after["body"]["phases"][0]["uses"]["dice"] == []
    assert dropped.warnings == ["phase 'plan' no longer uses dice 'attack'"]


def test_uses_update_sets_adds_and_removes_ids_per_kind(book) -> None:
    stocked = preview("promptbook.library.manage", book, {"put": _LIBRARY}).after
    result = preview("promptbook.uses.update", stocked, {"phase": "reply", "library": "skills", "ids": ["parry"]})
    assert result.changes == [{"op": "replace", "path": "/body/phases/1/uses/skills", "before": [], "after": ["parry"]}]
    assert result.warnings == []
    regex = preview(
        "promptbook.uses.update",
        result.after,
        {"phase": "reply", "library": "regex", "action": "add", "ids": ["cleanup"]},
    )
    assert regex.after["body"]["phases"][1]["uses"]["regex"] == ["cleanup"] and regex.warnings == []
    ahead = preview("promptbook.uses.update", stocked, {"phase": "plan", "library": "tools", "ids": ["search"]})
    assert ahead.warnings == ["the library holds no tools item 'search' yet; rehearse reports it missing"]
    removed = preview(
        "promptbook.uses.update",
        result.after,
        {"phase": "reply", "library": "skills", "action": "remove", "ids": ["parry"]},
    )
    assert removed.after == stocked


def test_uses_update_refuses_bad_ids_and_an_unknown_phase(book) -> None:
    assert (
        refusal("promptbook.uses.update", book, {"phase": "plan", "library": "skills", "ids": ["Not An Id"]}).code
        == "invalid_input"
    )
    assert (
        refusal("promptbook.uses.update", book, {"phase": "nope", "library": "dice", "ids": ["x"]}).code
        == "invalid_input"
    )
