"""Promptbooks without a model: the starters, try-line on keyword and regex conditions, and
rehearse rendering every enabled phase."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bunzai.render.promptbook import condition_fires
from testkit import corpus_path


@pytest.mark.parametrize(("condition", "line", "fires"), [
    (None, "anything", True),
    ("sword", "I draw my Sword.", True),
    ("sword", "I sit down.", False),
    ("sword", "swordfish for dinner", False),
    ("sword, fight | run", "We RUN now", True),
    ("/\\bdraw(s|n)?\\b/i", "She draws", True),
    ("/^x/", "no x at the start", False),
])
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
    _create(bunzai, {"name": "Fights", "phases": [
        {"id": "tactics", "stage": "private", "condition": "sword, fight"},
        {"id": "mood", "stage": "private", "enabled": False},
        {"id": "reply", "stage": "reply", "reads": ["tactics"], "preset": "default", "cards": ["seraphina"]}]})
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
    doc = book("promptbook", "rehearse", "fights", "--character", "seraphina", "--preset", "default", "--chat", str(chat),
               check=True).json
    rows = {p["phase"]: p for p in doc["phases"]}
    assert rows["mood"]["runs"] is False and "render" not in rows["mood"]
    for phase in ("tactics", "reply"):
        assert rows[phase]["render"]["messages"] and rows[phase]["render"]["unresolved"] == []
    assert rows["tactics"]["output"].startswith("[private output")
    assert rows["reply"]["forecast"].startswith("reply-only")
    assert rows["reply"]["render"]["messages"][-1]["block"] == "phase_output"


def test_rehearse_reports_missing_pieces(book) -> None:
    _create(book, {"name": "Ghost", "phases": [{"id": "reply", "stage": "reply", "cards": ["nobody"], "preset": "default"}]})
    doc = book("promptbook", "rehearse", "ghost", check=True).json
    assert doc["phases"][0]["missing"] == ["character/nobody"] and doc["phases"][0]["render"] is None
