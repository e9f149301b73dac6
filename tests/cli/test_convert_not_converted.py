"""`convert` names in `not_converted` the pieces of FILE it did not write. A card's own book is
also read as a lorebook piece, but it crosses inside the character (or is reported lost with it),
so it is not named; a module's regex scripts, left behind by a lorebook target, are."""

from __future__ import annotations

import json

import pytest

BOOK = {
    "name": "Eldoria",
    "entries": [{"keys": ["forest"], "content": "An old forest.", "enabled": True, "insertion_order": 100}],
}


def _card(tmp_path, book: dict | None = BOOK):
    data = {"name": "Ada", "first_mes": "Hello.", "description": "Ada keeps the lighthouse."}
    if book is not None:
        data["character_book"] = book
    path = tmp_path / "Ada.json"
    path.write_text(json.dumps({"spec": "chara_card_v3", "spec_version": "3.0", "data": data}))
    return path


@pytest.mark.parametrize("target", ["ccv3.json", "risu.charx", "agnai.character.json", "marinara.character"])
def test_a_card_s_own_book_is_converted_with_it(bunzai, tmp_path, target) -> None:
    card = _card(tmp_path)
    report = bunzai("convert", str(card), "--to", target, "-o", str(tmp_path / "out"), check=True).json
    assert "not_converted" not in report
    if target != "risu.charx":  # a JSON target: the report goes to stderr with -o -
        to_stdout = bunzai("convert", str(card), "--to", target, "-o", "-", check=True)
        assert "not_converted" not in json.loads(to_stdout.stderr)


def test_a_card_s_book_a_target_cannot_hold_is_a_loss_not_a_piece_left_behind(bunzai, tmp_path) -> None:
    report = bunzai("convert", str(_card(tmp_path)), "--to", "ccv1.json", "-o", str(tmp_path / "out"), check=True).json
    assert "not_converted" not in report
    assert "/body/book" in [loss["pointer"] for loss in report["losses"]]


def test_a_module_s_scripts_are_named_when_its_lorebook_is_converted(bunzai, tmp_path) -> None:
    lore = [
        {"key": "inn", "secondkey": "", "insertorder": 100, "comment": "Inn", "content": "An inn.", "mode": "normal"}
    ]
    script = {"comment": "shout", "in": "a", "out": "A", "type": "editdisplay", "ableFlag": False}
    module = {"name": "Town", "description": "", "id": "town-1", "lorebook": lore, "regex": [script], "trigger": []}
    path = tmp_path / "town.json"
    path.write_text(json.dumps(module | {"type": "risuModule"}))
    report = bunzai("convert", str(path), "--to", "risu.lorebook", "-o", str(tmp_path / "out"), check=True).json
    assert report["source_format"] == "risu.module.json"
    assert [name.split("/")[0] for name in report["not_converted"]] == ["regex"]
