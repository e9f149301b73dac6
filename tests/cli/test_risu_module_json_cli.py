"""A RisuRealm module JSON through the real command: imported into a studio as a lorebook and a regex
set, exported back as a module RisuAI's import takes, with no RisuAI checkout configured."""

from __future__ import annotations

import json

REALM = {
    "name": "Weather",
    "description": "rain and sun",
    "id": "8c1d0f3a-2b7e-4d4f-9a55-1f0e3b9c2d11",
    "lorebook": [
        {
            "key": "rain",
            "comment": "Rain",
            "content": "Wet.",
            "mode": "normal",
            "insertorder": 100,
            "alwaysActive": False,
            "secondkey": "",
            "selective": False,
        }
    ],
    "regex": [{"comment": "caps", "in": "rain", "out": "RAIN", "type": "editdisplay", "flag": "g", "ableFlag": True}],
    "trigger": [{"comment": "start", "type": "start", "conditions": [], "effect": []}],
    "lowLevelAccess": False,
    "hideIcon": False,
    "type": "risuModule",
}


def test_a_realm_module_imports_edits_and_exports_as_a_module_risuai_takes(bunzai, tmp_path):
    source = tmp_path / "Weather.json"
    source.write_text(json.dumps(REALM, separators=(",", ":")))
    drafts = bunzai("import", str(source), check=True).stdout
    receipts = [json.loads(line) for line in bunzai("apply", "--yes", input=drafts, check=True).stdout.splitlines()]
    assert sorted(receipt["target"]["id"] for receipt in receipts) == ["weather", "weather-regex"]
    listed = bunzai("list", "--kind", "lorebook", check=True).json
    assert "weather" in json.dumps(listed)
    receipt = bunzai("export", "weather", "--to", "risu.module.json", check=True).json
    written = json.loads((bunzai.studio / receipt["path"]).read_text())
    assert written == REALM  # unedited: the module as it came, triggers and flags included
    assert written["type"] == "risuModule" and written["name"] and written["id"]  # what RisuAI's import checks


def test_bunzai_formats_lists_the_module_json_as_read_and_written(bunzai):
    items = {item["format"]: item for item in bunzai("formats", check=True).json["items"]}
    row = items["risu.module.json"]
    assert (row["kinds"], row["read"], row["write"], row["engine"]) == (["lorebook", "regex"], True, True, "risuai")
