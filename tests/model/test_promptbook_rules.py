"""The promptbook decoder rules: each broken rule is refused, and named."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from model_strategies import valid_phase_lists
from pydantic import ValidationError

from bunzai.model import parse_piece
from bunzai.model.promptbook import Promptbook


def book(*phases: dict) -> dict:
    return {"kind": "promptbook", "id": "turn", "name": "Turn", "body": {"phases": list(phases)}}


def phase(phase_id: str, stage: str = "private", **fields) -> dict:
    return {"id": phase_id, "stage": stage, **fields}


def refused_rule(document: dict) -> str:
    with pytest.raises(ValidationError) as caught:
        parse_piece(document)
    rules = [error for error in caught.value.errors() if error["type"] == "promptbook_rule"]
    assert rules, caught.value.errors()
    assert rules[0]["ctx"]["rule"] in rules[0]["msg"]
    return rules[0]["ctx"]["rule"]


def test_a_promptbook_from_just_a_name_has_one_reply_phase():
    piece = parse_piece({"kind": "promptbook", "id": "turn", "name": "Turn"})
    assert isinstance(piece, Promptbook)
    assert [(p.id, p.stage, p.enabled) for p in piece.body.phases] == [("reply", "reply", True)]


def test_a_full_valid_promptbook_is_accepted():
    parse_piece(
        book(
            phase("plan", together="think"),
            phase("mood", together="think"),
            phase("draft", reads=["plan", "mood"]),
            phase("reply", "reply", reads=["draft"]),
            phase("alt", "reply", enabled=False, condition="never"),
            phase("summary", "after", reads=["reply"], condition="every 10 turns"),
        )
    )


def test_duplicate_phase_ids_are_refused():
    assert refused_rule(book(phase("a"), phase("a"), phase("r", "reply"))) == "duplicate_phase_id"


@pytest.mark.parametrize(
    "reads",
    [["r"], ["a"], ["ghost"]],
    ids=["later", "itself", "unknown"],
)
def test_reading_a_phase_that_has_not_run_is_refused(reads):
    assert refused_rule(book(phase("a", reads=reads), phase("r", "reply"))) == "read_of_later_phase"


@pytest.mark.parametrize(
    "phases",
    [
        [phase("a", together="g"), phase("b"), phase("c", together="g"), phase("r", "reply")],
        [phase("a", together="g"), phase("r", "reply")],
        [phase("a", together="g"), phase("r", "reply", together="g")],
        [phase("r", "reply", together="g"), phase("r2", "reply", enabled=False, together="g")],
        [phase("r", "reply"), phase("x", "after", together="g"), phase("y", "after", together="g", reads=["x"])],
    ],
    ids=["not-adjacent", "single-member", "mixed-stages", "reply-stage", "member-reads-member"],
)
def test_invalid_together_groups_are_refused(phases):
    assert refused_rule(book(*phases)) == "invalid_together_group"


@pytest.mark.parametrize(
    "phases",
    [
        [],
        [phase("a")],
        [phase("r", "reply", enabled=False)],
        [phase("r", "reply"), phase("s", "reply")],
        [phase("r", "reply", condition="sometimes")],
    ],
    ids=["empty", "no-reply", "reply-disabled", "two-replies", "conditional-reply"],
)
def test_anything_but_one_enabled_unconditional_reply_is_refused(phases):
    assert refused_rule(book(*phases)) == "reply_phase_count"


@pytest.mark.parametrize(
    "phases",
    [
        [phase("r", "reply"), phase("a", "private")],
        [phase("x", "after"), phase("r", "reply")],
        [phase("a"), phase("x", "after"), phase("r", "reply")],
    ],
    ids=["private-after-reply", "after-before-reply", "after-between"],
)
def test_stages_out_of_order_are_refused(phases):
    assert refused_rule(book(*phases)) == "phase_order"


# --- randomly broken promptbooks -------------------------------------------------------
# Each breaker breaks one rule of a valid promptbook and returns its name. Ids it adds are
# longer than the strategy's ids (16 characters at most), so they never collide.


def _duplicate_an_id(phases, draw):
    i = draw(st.integers(0, len(phases) - 1))
    j = draw(st.integers(0, len(phases) - 1).filter(lambda j: j != i)) if len(phases) > 1 else None
    if j is None:
        phases.append(dict(phases[i], stage="after", together=None, reads=[]))
    else:
        phases[j] = dict(phases[j], id=phases[i]["id"])
    return "duplicate_phase_id"


def _read_a_later_phase(phases, draw):
    i = draw(st.integers(0, len(phases) - 1))
    j = draw(st.integers(i, len(phases) - 1))
    phases[i] = dict(phases[i], reads=[*phases[i]["reads"], phases[j]["id"]])
    return "read_of_later_phase"


def _drop_or_double_the_reply(phases, draw):
    reply = next(i for i, p in enumerate(phases) if p["stage"] == "reply" and p["enabled"])
    change = draw(st.sampled_from(["drop", "disable", "condition", "double"]))
    if change == "drop":
        del phases[reply]  # reads of it dangle, but the reply rule is checked first
    elif change == "disable":
        phases[reply] = dict(phases[reply], enabled=False)
    elif change == "condition":
        phases[reply] = dict(phases[reply], condition="maybe")
    else:
        phases.insert(reply + 1, dict(phases[reply], id="second-reply-phase", reads=[], together=None))
    return "reply_phase_count"


def _move_a_stage_out_of_place(phases, draw):
    reply = next(i for i, p in enumerate(phases) if p["stage"] == "reply" and p["enabled"])
    if draw(st.booleans()):
        phases.append(dict(phases[0], id="late-private-phase", stage="private", together=None, reads=[]))
    else:
        phases.insert(0, dict(phases[reply], id="early-after-phase-x", stage="after", together=None, reads=[]))
    return "phase_order"


def _group_the_reply(phases, draw):
    reply = next(i for i, p in enumerate(phases) if p["stage"] == "reply" and p["enabled"])
    phases[reply] = dict(phases[reply], together=draw(st.sampled_from(["solo", "thinking", "cleanup"])))
    return "invalid_together_group"


BREAKERS = [
    _duplicate_an_id,
    _read_a_later_phase,
    _drop_or_double_the_reply,
    _move_a_stage_out_of_place,
    _group_the_reply,
]


@settings(max_examples=200, deadline=None)
@given(valid_phase_lists(), st.sampled_from(BREAKERS), st.data())
def test_randomly_broken_promptbooks_are_refused_with_the_broken_rule(phases, breaker, data):
    parse_piece(book(*phases))  # valid before breaking
    expected = breaker(phases, data.draw)
    assert refused_rule(book(*phases)) == expected


def library_book(library: dict, uses: dict | None = None) -> dict:
    document = book(phase("reply", "reply", uses=uses or {}))
    document["body"]["library"] = library
    return document


def test_library_ids_are_unique_per_kind_only():
    assert (
        refused_rule(library_book({"dice": [{"id": "a", "notation": "d6"}, {"id": "a", "notation": "d8"}]}))
        == "duplicate_library_id"
    )
    parse_piece(
        library_book(
            {
                "dice": [{"id": "a", "notation": "d6"}],
                "skills": [{"id": "a"}],
                "tools": [{"id": "a"}],
                "scripts": [{"id": "a"}],
                "trackers": [{"id": "a"}],
            }
        )
    )


def test_uses_may_name_ids_the_library_lacks():
    piece = parse_piece(library_book({}, {"skills": ["ghost"], "regex": ["cleanup"]}))
    assert piece.body.phases[0].uses.skills == ["ghost"] and piece.body.phases[0].uses.regex == ["cleanup"]


@pytest.mark.parametrize("notation", ["2d6+1", "d20", "1d8 + 1d6 - 2", "3D6-1", "d100+0"])
def test_dice_notation_accepted(notation):
    parse_piece(library_book({"dice": [{"id": "x", "notation": notation}]}))


@pytest.mark.parametrize("notation", ["", "6", "3+d6", "0d6", "2d0", "2d", "d6+", "2x6", "1d6*2", "-d6", "d6 d6"])
def test_dice_notation_refused(notation):
    with pytest.raises(ValidationError) as caught:
        parse_piece(library_book({"dice": [{"id": "x", "notation": notation}]}))
    assert "not dice notation" in str(caught.value)


@pytest.mark.parametrize("parameters", [{"type": "string"}, {"properties": []}, {"type": "object", "required": "x"}])
def test_tool_parameters_must_be_an_object_schema(parameters):
    with pytest.raises(ValidationError):
        parse_piece(library_book({"tools": [{"id": "t", "parameters": parameters}]}))


def test_tracker_values_keep_their_type_and_names_are_unique():
    piece = parse_piece(
        library_book(
            {
                "trackers": [
                    {
                        "id": "hp",
                        "fields": [
                            {"name": "hp", "initial": 20},
                            {"name": "armed", "initial": True},
                            {"name": "mood", "initial": "calm"},
                        ],
                    }
                ]
            }
        )
    )
    assert [f.initial for f in piece.body.library.trackers[0].fields] == [20, True, "calm"]
    with pytest.raises(ValidationError):
        parse_piece(library_book({"trackers": [{"id": "hp", "fields": [{"name": "hp"}, {"name": "hp"}]}]}))
