"""Promptbooks without a model: the starters, try-line on keyword and regex conditions, and
rehearse rendering every enabled phase."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bunzai.render.promptbook import condition_fires
from testkit import corpus_path


@pytest.mark.parametrize(
    ("condition", "line", "fires"),
    [
        (None, "anything", True),
        ("sword", "I draw my Sword.", True),
        ("sword", "I sit down.", False),
        ("sword", "swordfish for dinner", False),
        ("sword, fight | run", "We RUN now", True),
        ("/\\bdraw(s|n)?\\b/i", "She draws", True),
        ("/^x/", "no x at the start", False),
    ],
)
def test_conditions(condition, line, fires) -> None:
    assert condition_fires(condition, line)[0] is fires


def test_a_broken_regex_condition_never_fires_and_says_why() -> None:
    fires, why = condition_fires("/(unclosed/", "text")
    assert fires is False and "does not compile" in why


def _create(bunzai, payload: dict) -> dict:
    draft = bunzai("create", "promptbook", "--input", json.dumps(payload), check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    return bunzai("read", f"promptbook/{json.loads(draft.stdout)['target']['id']}", check=True).json["piece"]


def test_the_two_starters(bunzai) -> None:
    blank = _create(bunzai, {"name": "Plain", "starter": "blank"})
    assert [p["id"] for p in blank["body"]["phases"]] == ["reply"]
    think = _create(bunzai, {"name": "Think first", "starter": "think-then-write"})
    phases = think["body"]["phases"]
    assert [(p["id"], p["stage"]) for p in phases] == [("think", "private"), ("reply", "reply")]
    assert phases[1]["reads"] == ["think"]
    refused = bunzai("create", "promptbook", "--input", json.dumps({"name": "X", "starter": "chaos"}))
    assert refused.code == 1 and refused.json["error"]["code"] == "invalid_input"


@pytest.fixture
def book(bunzai):
    for parts in (("presets", "openai", "Default.json"), ("characters", "default_Seraphina.png")):
        drafts = bunzai("import", str(corpus_path("sillytavern", *parts)), check=True)
        bunzai("apply", "--yes", input=drafts.stdout, check=True)
    _create(
        bunzai,
        {
            "name": "Fights",
            "phases": [
                {"id": "tactics", "stage": "private", "condition": "sword, fight"},
                {"id": "mood", "stage": "private", "enabled": False},
                {"id": "reply", "stage": "reply", "reads": ["tactics"], "preset": "default", "cards": ["seraphina"]},
            ],
        },
    )
    return bunzai


def test_try_line_fires_on_the_keyword_only(book) -> None:
    hit = book("promptbook", "try-line", "fights", "I raise my sword!", check=True).json
    miss = book("promptbook", "try-line", "fights", "I wave hello.", check=True).json
    runs = {p["phase"]: p["runs"] for p in hit["phases"]}
    assert runs == {"tactics": True, "mood": False, "reply": True}
    assert {p["phase"]: p["runs"] for p in miss["phases"]}["tactics"] is False
    assert "not simulated" in hit["not_simulated"]


def test_rehearse_renders_every_enabled_phase(book, tmp_path: Path) -> None:
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "Ready to fight?"}]), encoding="utf-8")
    doc = book(
        "promptbook",
        "rehearse",
        "fights",
        "--character",
        "seraphina",
        "--preset",
        "default",
        "--chat",
        str(chat),
        check=True,
    ).json
    rows = {p["phase"]: p for p in doc["phases"]}
    assert rows["mood"]["runs"] is False and "render" not in rows["mood"]
    for phase in ("tactics", "reply"):
        assert rows[phase]["render"]["messages"] and rows[phase]["render"]["unresolved"] == []
    assert rows["tactics"]["output"].startswith("[private output")
    assert rows["reply"]["forecast"].startswith("reply-only")
    assert rows["reply"]["render"]["messages"][-1]["block"] == "phase_output"


def test_rehearse_reports_missing_pieces(book) -> None:
    _create(
        book, {"name": "Ghost", "phases": [{"id": "reply", "stage": "reply", "cards": ["nobody"], "preset": "default"}]}
    )
    doc = book("promptbook", "rehearse", "ghost", check=True).json
    assert doc["phases"][0]["missing"] == ["character/nobody"] and doc["phases"][0]["render"] is None


def test_dice_rolls_stay_in_range_and_follow_the_seed() -> None:
    import random

    from bunzai import limits
    from bunzai.render.dice import roll

    for seed in range(50):
        rolled = roll("2d6+1d4-2", random.Random(seed))
        assert len(rolled["rolls"]) == 2 and all(1 <= face <= 6 for face in rolled["rolls"][0])
        assert rolled["total"] == sum(rolled["rolls"][0]) + rolled["rolls"][1][0] - 2
        assert roll("2d6+1d4-2", random.Random(seed)) == rolled
    assert len({roll("d20", random.Random(seed))["total"] for seed in range(20)}) > 1
    assert "error" in roll(f"{limits.RENDER_DICE_MAX}d6+1d6", random.Random(0))


_LIBRARY = {
    "scripts": [{"id": "beats", "name": "Fight beats", "text": "Open, exchange, turn."}],
    "skills": [
        {"id": "parry", "name": "Parry", "description": "when a blow comes", "instructions": "Describe the parry."}
    ],
    "tools": [
        {
            "id": "inventory",
            "name": "inventory",
            "parameters": {"type": "object", "properties": {"item": {"type": "string"}}},
        }
    ],
    "dice": [{"id": "attack", "name": "Attack", "notation": "1d20+3"}],
    "trackers": [{"id": "hp", "name": "Health", "fields": [{"name": "hp", "initial": 20}]}],
}


@pytest.fixture
def stocked(book):
    draft = book(
        "create",
        "regex",
        "--input",
        json.dumps(
            {
                "name": "Blades",
                "rules": [
                    {
                        "name": "sword to blade",
                        "pattern": "sword",
                        "flags": "gi",
                        "replacement": "blade",
                        "placements": ["user_input"],
                        "prompt_only": True,
                    }
                ],
            }
        ),
        check=True,
    )
    book("apply", "--yes", input=draft.stdout, check=True)
    _create(
        book,
        {
            "name": "Armed",
            "library": _LIBRARY,
            "phases": [
                {
                    "id": "tactics",
                    "stage": "private",
                    "uses": {
                        "dice": ["attack", "defence"],
                        "regex": ["blades", "ghost"],
                        "scripts": ["beats"],
                        "tools": ["inventory"],
                        "trackers": ["hp"],
                    },
                },
                {"id": "aside", "stage": "private", "enabled": False, "uses": {"skills": ["nowhere"]}},
                {"id": "reply", "stage": "reply", "reads": ["tactics"], "uses": {"skills": ["parry"]}},
            ],
        },
    )
    return book


def _pointers(doc: dict) -> list[str]:
    return [finding["pointer"] for finding in doc["findings"]]


def test_try_line_reports_present_and_missing_library_items(stocked) -> None:
    doc = stocked("promptbook", "try-line", "armed", "I draw my sword.", check=True).json
    rows = {p["phase"]: p for p in doc["phases"]}
    present = rows["tactics"]["uses"]["present"]
    assert [item["id"] for item in present["dice"]] == ["attack"] and present["regex"] == [
        {"id": "blades", "name": "Blades"}
    ]
    assert {kind for kind in present} == {"scripts", "tools", "dice", "regex", "trackers"}
    assert [(m["library"], m["id"]) for m in rows["tactics"]["uses"]["missing"]] == [
        ("dice", "defence"),
        ("regex", "ghost"),
    ]
    assert rows["reply"]["uses"] == {"present": {"skills": [{"id": "parry", "name": "Parry"}]}, "missing": []}
    # A disabled phase's broken reference is still a finding: it breaks when the phase is turned on.
    assert _pointers(doc) == [
        "/body/phases/0/uses/dice/1",
        "/body/phases/0/uses/regex/1",
        "/body/phases/1/uses/skills/0",
    ]
    assert {f["kind"] for f in doc["findings"]} == {"missing_reference"}


def test_rehearse_shows_what_each_phase_carries(stocked, tmp_path: Path) -> None:
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "I raise my sword."}]), encoding="utf-8")
    args = ("promptbook", "rehearse", "armed", "--character", "seraphina", "--preset", "default", "--chat", str(chat))
    doc = stocked(*args, "--seed", "7", check=True).json
    rows = {p["phase"]: p for p in doc["phases"]}
    carried = rows["tactics"]["uses"]["present"]
    attack = carried["dice"][0]
    assert attack["notation"] == "1d20+3" and attack["forecast"]["label"].startswith("forecast with seed 7")
    assert attack["forecast"]["total"] == attack["forecast"]["rolls"][0][0] + 3
    assert carried["tools"][0]["parameters"] == ["item"] and carried["trackers"][0]["fields"] == {"hp": 20}
    assert carried["scripts"][0]["tokens"] > 0 and rows["reply"]["uses"]["present"]["skills"][0]["description"]
    # The phase's regex piece runs in its render: the user's line reaches the prompt rewritten.
    contents = [m["content"] for m in rows["tactics"]["render"]["messages"]]
    assert any("I raise my blade." in text for text in contents), contents
    assert not any("I raise my blade." in m["content"] for m in rows["reply"]["render"]["messages"])
    assert _pointers(doc) == [
        "/body/phases/0/uses/dice/1",
        "/body/phases/0/uses/regex/1",
        "/body/phases/1/uses/skills/0",
    ]
    assert stocked(*args, "--seed", "7", check=True).json == doc
    totals = {
        json.dumps(stocked(*args, "--seed", str(seed), check=True).json["phases"][0]["uses"]["present"]["dice"])
        for seed in range(4)
    }
    assert len(totals) > 1


def test_rehearse_reports_missing_cards_as_findings(book) -> None:
    _create(
        book,
        {
            "name": "Lost",
            "phases": [{"id": "reply", "stage": "reply", "cards": ["seraphina", "nobody"], "preset": "gone"}],
        },
    )
    doc = book("promptbook", "rehearse", "lost", check=True).json
    assert [(f["kind"], f["pointer"], f["ref"]) for f in doc["findings"]] == [
        ("missing_piece", "/body/phases/0/cards/1", "character/nobody"),
        ("missing_piece", "/body/phases/0/preset", "preset/gone"),
    ]
