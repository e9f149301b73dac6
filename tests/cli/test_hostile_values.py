"""Values that broke readers: lone surrogates are mended with a warning, numbers too large
for a float are refused on read as they would be on write (issue 17)."""

from __future__ import annotations

import json
from pathlib import Path

CARD = {
    "spec": "chara_card_v2",
    "spec_version": "2.0",
    "data": {"name": "Zed", "description": "SURROGATE", "first_mes": "hi"},
}


def test_a_lone_surrogate_in_a_card_is_replaced_said_and_the_card_applies(bunzai, tmp_path: Path) -> None:
    text = json.dumps(CARD).replace("SURROGATE", "half \\ud83d an emoji")
    (tmp_path / "zed.json").write_text(text)
    imported = bunzai("import", str(tmp_path / "zed.json"))
    [draft] = imported.lines
    assert imported.code == 0 and draft["proposed"]["body"]["description"] == "half \ufffd an emoji"
    assert any("surrogate" in warning for warning in draft["warnings"])
    assert bunzai("apply", "--yes", input=imported.stdout).json["status"] == "applied"


def test_a_number_too_large_for_a_float_is_refused_on_read_by_every_command(bunzai, tmp_path: Path) -> None:
    card = json.dumps(CARD).replace('"hi"', '"hi", "extensions": {"depth": 1e400}')
    (tmp_path / "big.json").write_text(card)
    for args in (
        ("import", str(tmp_path / "big.json")),
        ("convert", str(tmp_path / "big.json"), "--to", "ccv3.json", "-o", "-"),
    ):
        done = bunzai(*args)
        assert done.code == 1 and done.json["error"]["code"] in ("invalid_json", "corrupt_file")
        assert "too large" in done.json["error"]["message"]


def nested(depth: int) -> object:
    value: object = "leaf"
    for _ in range(depth):
        value = {"x": value}
    return value


def test_what_import_accepts_apply_accepts_too_at_the_depth_limit(bunzai, tmp_path: Path) -> None:
    from bunzai import limits

    card = json.loads(json.dumps(CARD))
    card["data"]["extensions"] = {"deep": nested(limits.JSON_MAX_DEPTH - 4)}  # the file nests 199 levels
    (tmp_path / "deep.json").write_text(json.dumps(card))
    imported = bunzai("import", str(tmp_path / "deep.json"))
    assert imported.code == 0
    assert bunzai("apply", "--yes", input=imported.stdout).json["status"] == "applied"
    card["data"]["extensions"] = {"deep": nested(limits.JSON_MAX_DEPTH)}
    (tmp_path / "deeper.json").write_text(json.dumps(card))
    refused = bunzai("import", str(tmp_path / "deeper.json"))
    assert refused.code == 1 and refused.json["error"]["code"] == "too_deep"


def test_a_repeated_key_keeps_its_last_value_as_javascript_does_and_is_reported(bunzai, tmp_path: Path) -> None:
    text = json.dumps(CARD).replace('"name": "Zed"', '"name": "First", "name": "Zed"')
    (tmp_path / "twice.json").write_text(text)
    [draft] = bunzai("import", str(tmp_path / "twice.json"), check=True).lines
    assert draft["proposed"]["name"] == "Zed"
    assert any("repeats the key(s) name" in warning for warning in draft["warnings"])


def test_a_repeated_key_in_yaml_follows_the_same_rule(bunzai, tmp_path: Path) -> None:
    # text-generation-webui reads its YAML characters with PyYAML, which keeps the last value.
    (tmp_path / "twice.yaml").write_text("name: First\nname: Zed\ncontext: A cartographer.\ngreeting: Hello.\n")
    [draft] = bunzai("import", str(tmp_path / "twice.yaml"), check=True).lines
    assert draft["proposed"]["name"] == "Zed"
    assert any("repeats the key(s) name" in warning for warning in draft["warnings"])


def test_convert_reports_a_repeated_key_in_its_warnings(bunzai, tmp_path: Path) -> None:
    text = json.dumps(CARD).replace('"name": "Zed"', '"name": "First", "name": "Zed"')
    (tmp_path / "twice.json").write_text(text)
    report = bunzai("convert", str(tmp_path / "twice.json"), "--to", "ccv3.json", "-o", str(tmp_path / "out.json"))
    assert report.code == 0 and json.loads((tmp_path / "out.json").read_text())["data"]["name"] == "Zed"
    assert any("repeats the key(s) name" in warning for warning in report.json["warnings"])
    clean = bunzai("convert", str(tmp_path / "out.json"), "--to", "ccv2.json", "-o", str(tmp_path / "v2.json"))
    assert clean.json["warnings"] == []


def test_draft_show_text_prints_a_cards_terminal_escapes_escaped(bunzai, tmp_path: Path) -> None:
    evil = "Line one\n\x1b]0;PWNED\x07\x1b[8mhidden\x1b[0m \x9b2J \u202eevil the old quiet forest"
    (tmp_path / "evil.json").write_text(json.dumps({"name": "Evil", "description": evil}))
    made = bunzai("create", "character", "--input", f"@{tmp_path / 'evil.json'}", check=True)
    bunzai("apply", "--yes", input=made.stdout, check=True)
    upd = bunzai(
        "cap",
        "run",
        "character.prompts.update",
        "evil",
        "--input",
        '{"description": "Line one\\nthe old gentle forest"}',
    )
    for draft in (made.stdout, upd.stdout):  # the create's card and the update's word diff
        card = bunzai("draft", "show", "--text", input=draft, check=True).stdout
        assert not any(char in card for char in "\x1b\x07\x9b\u202e"), card
    assert "[-\\x1b]0;PWNED\\x07\\x1b[8mhidden\\x1b[0m \\x9b2J \\u202eevil" in card
