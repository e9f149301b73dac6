"""Promptbook keyword conditions on lines in scripts that put no spaces between words."""

from __future__ import annotations

import json

import pytest

from bunzai.render.promptbook import condition_fires


@pytest.mark.parametrize(
    ("condition", "line", "fires"),
    [
        ("剣, 戦い", "私は剣を抜く。", True),
        ("宝剑", "他拔出了宝剑准备战斗", True),
        ("ดาบ", "ฉันชักดาบออกมา", True),
        ("검", "나는 검을 뽑았다", True),
        ("sword", "剣とswordfish", False),  # ASCII words still join as before
        ("Sword", "剑sword剑", True),
    ],
)
def test_a_keyword_is_found_between_letters_of_scripts_without_spaces(condition, line, fires) -> None:
    assert condition_fires(condition, line)[0] is fires


def test_try_line_fires_on_a_japanese_keyword(bunzai) -> None:
    payload = {
        "name": "戦闘",
        "phases": [{"id": "tactics", "stage": "private", "condition": "剣|戦い"}, {"id": "reply", "stage": "reply"}],
    }
    draft = bunzai("create", "promptbook", "--input", json.dumps(payload), check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    book_id = json.loads(draft.stdout)["target"]["id"]
    tried = bunzai("promptbook", "try-line", book_id, "私は剣を抜いた！", check=True).json
    tactics = next(p for p in tried["phases"] if p["phase"] == "tactics")
    assert tactics["runs"] is True and "剣" in tactics["why"]
