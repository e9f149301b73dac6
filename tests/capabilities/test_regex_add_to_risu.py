"""A rule added to a set read from RisuAI crosses back to RisuAI with no loss: RisuAI scripts
have no id, so `regex.rules.add` makes none there (it still does for other sets)."""

from __future__ import annotations

import json

RISU_EXPORT = {
    "type": "regex",
    "data": [{"comment": "one", "in": "x", "out": "y", "type": "editoutput", "flag": "g", "ableFlag": True}],
}
NEW_RULE = {"name": "Two words", "pattern": "q", "replacement": "z", "flags": "g", "placements": ["ai_output"]}


def stored_set(bunzai, tmp_path, document) -> None:
    path = tmp_path / "regexscript_export.json"
    path.write_text(json.dumps(document))
    bunzai("apply", "--yes", input=bunzai("import", str(path), check=True).stdout, check=True)


def add_rule(bunzai, ref: str) -> None:
    draft = bunzai("cap", "run", "regex.rules.add", ref, "--input", json.dumps({"rules": [NEW_RULE]}), check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)


def test_a_rule_added_to_a_risu_set_exports_to_risu_with_no_loss(bunzai, tmp_path):
    stored_set(bunzai, tmp_path, RISU_EXPORT)
    add_rule(bunzai, "regex/regexscript_export")
    rules = bunzai("read", "regex/regexscript_export", "--pointer", "/body/rules", check=True).json["value"]
    assert [rule["id"] for rule in rules] == ["", ""]
    crossing = bunzai("transfer", "regex/regexscript_export", "--to", "risu.regex", check=True).json
    assert crossing["losses"] == []


def test_a_rule_added_to_a_sillytavern_set_still_gets_an_id(bunzai, tmp_path):
    script = {"id": "0b1c", "scriptName": "one", "findRegex": "/x/g", "replaceString": "y", "placement": [2]}
    path = tmp_path / "one.json"
    path.write_text(json.dumps(script))
    bunzai("apply", "--yes", input=bunzai("import", str(path), check=True).stdout, check=True)
    add_rule(bunzai, "regex/one")
    rules = bunzai("read", "regex/one", "--pointer", "/body/rules", check=True).json["value"]
    assert [rule["id"] for rule in rules] == ["0b1c", "two-words"]
