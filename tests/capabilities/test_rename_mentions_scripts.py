"""Renaming a character warns where prose still spells the old name, in every script.

Chinese and Japanese put no spaces between words and Korean attaches its particles, so the old
name sits between letters; only ASCII letters, digits and `_` join words (as SillyTavern's
whole-word keys read them)."""

from __future__ import annotations

import json

import pytest

from bunzai.capabilities.character.target import mentions


@pytest.mark.parametrize(
    ("text", "name", "found"),
    [
        ("雪乃是一只住在東京的猫娘。", "雪乃", True),
        ("こんにちは、雪乃さん！", "雪乃", True),
        ("민수가 웃었다.", "민수", True),
        ("Ann waves.", "ann", True),
        ("Annabel waves.", "Ann", False),
        ("雪乃x", "雪乃", False),  # an ASCII letter still joins
        ("x_雪乃", "x", False),
    ],
)
def test_mentions_reads_words_as_sillytavern_does(text: str, name: str, found: bool) -> None:
    assert mentions(text, name) is found


def test_renaming_a_chinese_character_warns_about_the_old_name_in_its_prose(bunzai, tmp_path) -> None:
    card = {
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {"name": "雪乃", "description": "雪乃是一只住在東京的猫娘。", "first_mes": "你好，我是雪乃！"},
    }
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    drafts = bunzai("import", str(path), check=True)
    piece_id = json.loads(drafts.stdout.splitlines()[0])["target"]["id"]
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    draft = bunzai("cap", "run", "character.identity.update", piece_id, "--input", '{"name": "小雪"}', check=True)
    warnings = " ".join(draft.json["warnings"])
    assert "'雪乃'" in warnings and "description" in warnings and "first_message" in warnings
