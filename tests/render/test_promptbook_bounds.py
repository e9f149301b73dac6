"""Promptbook rehearsals stay answers, not crashes: dice past the limits are an `error` in the
forecast, a runaway phase condition is that phase's own `why`, and a hand-edited promptbook
breaking the model is refused with the model's words."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai import limits
from bunzai.render.dice import roll
from bunzai.render.promptbook import condition_fires, try_line
from bunzai.store.studio import init_studio
from model.model_strategies import documents

_LONG = "9" * 5000  # past the 4,300 digits Python converts to int
_SAFE_JSON_INTEGER = 2**53  # the largest every JSON reader holds exactly


@pytest.mark.parametrize("notation", [f"1d{_LONG}", f"{_LONG}d6", f"d6+{_LONG}", f"d6-{_LONG}d4"])
def test_thousands_of_digits_are_refused_in_the_forecast(notation: str) -> None:
    rolled = roll(notation, random.Random(0))
    assert rolled["error"]["code"] == "too_large"
    assert len(rolled["error"]["message"]) < 300  # the notation is quoted cut, not whole


def test_the_largest_dice_keep_an_exact_json_total() -> None:
    most = limits.RENDER_DICE_MAX_SIDES
    rolled = roll(f"{limits.RENDER_DICE_MAX}d{most}+{most}", random.Random(0))
    assert 0 < rolled["total"] < _SAFE_JSON_INTEGER and json.loads(json.dumps(rolled)) == rolled
    assert roll(f"{limits.RENDER_DICE_MAX}d1{'0' * 300}", random.Random(0))["error"]["code"] == "too_large"
    assert roll(f"1d{most + 1}", random.Random(0))["error"]["code"] == "too_large"
    assert roll("1d0", random.Random(0))["error"]["code"] == "invalid_input"  # hand-made: the model refuses it


_DIGITS = st.from_regex(r"[1-9][0-9]{0,5000}", fullmatch=True)


@st.composite
def _notations(draw) -> str:
    terms = draw(st.lists(st.tuples(st.sampled_from("+-"), st.booleans(), _DIGITS, _DIGITS), max_size=4))
    text = f"{draw(_DIGITS)}d{draw(_DIGITS)}"
    for sign, die, count, sides in terms:
        text += sign + (f"{count}d{sides}" if die else sides)
    return text


@settings(max_examples=60)
@given(_notations(), st.integers(0, 2**32))
def test_any_notation_rolls_in_range_or_says_why(notation: str, seed: int) -> None:
    rolled = roll(notation, random.Random(seed))
    if "error" in rolled:
        assert rolled["error"]["code"] == "too_large"
        return
    faces = [face for term in rolled["rolls"] for face in term]
    assert len(faces) <= limits.RENDER_DICE_MAX
    assert all(1 <= face <= limits.RENDER_DICE_MAX_SIDES for face in faces)
    assert abs(rolled["total"]) < _SAFE_JSON_INTEGER


def _write_book(bunzai, book_id: str, body: dict) -> None:
    piece = {"kind": "promptbook", "id": book_id, "name": book_id.title(), "body": body}
    (bunzai.studio / "promptbook").mkdir(exist_ok=True)
    (bunzai.studio / "promptbook" / f"{book_id}.json").write_text(json.dumps(piece), encoding="utf-8")


def test_rehearse_shows_a_huge_die_as_an_error_and_rolls_the_rest(bunzai) -> None:
    dice = [{"id": "huge", "notation": f"1d{_LONG}"}, {"id": "d6", "notation": "2d6"}]
    # The phase names a card the studio lacks: it is not rendered, and no corpus is needed.
    phase = {"id": "reply", "stage": "reply", "cards": ["nobody"], "uses": {"dice": ["huge", "d6"]}}
    _write_book(bunzai, "big", {"phases": [phase], "library": {"dice": dice}})
    done = bunzai("promptbook", "rehearse", "big", "--preset", "any")
    assert done.code == 0, done.stdout
    huge, small = done.json["phases"][0]["uses"]["present"]["dice"]
    assert huge["forecast"]["error"]["code"] == "too_large" and "total" not in huge["forecast"]
    assert small["forecast"]["total"] == sum(small["forecast"]["rolls"][0])


_CATASTROPHIC = "/(a+)+$/"
_RUNAWAY_LINE = "a" * 40 + "!"


def test_a_runaway_condition_is_its_phases_own_why() -> None:
    fires, why = condition_fires(_CATASTROPHIC, _RUNAWAY_LINE)
    assert fires is False and "ran out of time" in why
    fires, why = condition_fires("/" + "a" * (limits.REGEX_PATTERN_MAX_CHARS + 1) + "/", "a")
    assert fires is False and "over" in why


def test_try_line_and_rehearse_answer_past_a_runaway_condition(bunzai) -> None:
    conditions = {"runaway": _CATASTROPHIC, "broken": "/(unclosed/", "keyword": "aaa, bbb", "bang": "/!$/"}
    # Every phase names a card the studio lacks: none is rendered, and no corpus is needed.
    phases = [{"id": key, "condition": value, "cards": ["nobody"]} for key, value in conditions.items()]
    phases.append({"id": "reply", "stage": "reply", "cards": ["nobody"]})
    _write_book(bunzai, "slow", {"phases": phases})
    tried = bunzai("promptbook", "try-line", "slow", _RUNAWAY_LINE)
    rehearsed = bunzai("promptbook", "rehearse", "slow", "--preset", "any", "--line", _RUNAWAY_LINE)
    for done in (tried, rehearsed):
        assert done.code == 0, done.stdout
        rows = {row["phase"]: row for row in done.json["phases"]}
        assert rows["runaway"]["runs"] is False and "ran out of time" in rows["runaway"]["why"]
        assert rows["broken"]["runs"] is False and "does not compile" in rows["broken"]["why"]
        assert rows["bang"]["runs"] is True and rows["reply"]["runs"] is True
        assert rows["keyword"]["runs"] is False  # the line is one word: "aaa" is not a whole word in it


@pytest.mark.parametrize(
    ("edit", "path"),
    [
        (lambda phase, library: phase.update(condition=5), "/body/phases/0/condition"),
        (lambda phase, library: phase.pop("id"), "/body/phases/0/id"),
        (lambda phase, library: phase.update(reads=5), "/body/phases/0/reads"),
        (lambda phase, library: library.update(dice=[{"id": "z", "notation": "1d0"}]), "/body/library/dice/0/notation"),
        (lambda phase, library: library.update(dice=["z"]), "/body/library/dice/0"),
    ],
)
def test_a_hand_edited_promptbook_is_refused_not_crashed_on(bunzai, edit, path: str) -> None:
    phase, library = {"id": "reply", "stage": "reply", "uses": {"dice": ["z"]}}, {}
    edit(phase, library)
    _write_book(bunzai, "hand", {"phases": [phase], "library": library})
    for args in (("try-line", "hand", "a line"), ("rehearse", "hand", "--preset", "any")):
        done = bunzai("promptbook", *args)
        assert done.code == 1, done.stdout
        error = done.json["error"]
        assert error["code"] == "invalid_input" and error["message"].startswith("promptbook/hand as stored")
        assert path in [problem["path"] for problem in error["details"]["problems"]]


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    return init_studio(tmp_path_factory.mktemp("studio"))[0]


@settings(max_examples=40)
@given(documents("promptbook"), st.text(max_size=30))
def test_try_line_answers_every_promptbook_the_model_accepts(studio, book: dict, line: str) -> None:
    doc = try_line(studio, book["id"], book, line)
    assert [row["phase"] for row in doc["phases"]] == [phase["id"] for phase in book["body"]["phases"]]
    for row in doc["phases"]:
        assert isinstance(row["runs"], bool) and row["why"]
