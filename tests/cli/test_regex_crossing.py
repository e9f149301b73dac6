"""A regex set crossing between SillyTavern and RisuAI: replacements respelled for the target's
reading, macros translated, a display rule written where SillyTavern runs it; all reported."""

from __future__ import annotations

import json

ST_SCRIPT = {
    "id": "1",
    "scriptName": "wrap",
    "findRegex": "/\\*(.+?)\\*/g",
    "replaceString": "<i>{{match}}</i> cost $5 {{user}} {{incvar::n}}",
    "trimStrings": [],
    "placement": [2],
    "disabled": False,
    "markdownOnly": False,
    "promptOnly": False,
    "runOnEdit": False,
    "substituteRegex": 0,
    "minDepth": None,
    "maxDepth": None,
}
RISU_EXPORT = {
    "type": "regex",
    "data": [{"comment": "amp", "in": "\\*(.+?)\\*", "out": "<b>$&</b>$nprice: $$5 $`", "type": "editdisplay"}],
}


def imported(bunzai, tmp_path, name: str, document) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document))
    drafts = bunzai("import", str(path), check=True)
    return bunzai("apply", "--yes", input=drafts.stdout, check=True).json["target"]["id"]


def written(bunzai, ref: str, target: str) -> tuple[dict, dict]:
    report = bunzai("export", ref, "--to", target, check=True).json
    folder = bunzai.studio / report["folder"] if "folder" in report else None
    files = list((folder or bunzai.studio / "Export").rglob("*.json"))
    return report, json.loads(files[-1].read_text())


def test_sillytavern_rules_reach_risu_with_their_replacement_respelled(bunzai, tmp_path) -> None:
    piece = imported(bunzai, tmp_path, "wrap.json", ST_SCRIPT)
    report = bunzai("transfer", f"regex/{piece}", "--to", "risu.regex", check=True).json
    codes = {loss["code"] for loss in report["losses"]}
    assert {"regex.replacement.translated", "macro.absent"} <= codes  # {{incvar}}: RisuAI has none
    assert report["macros"]["from"] == "sillytavern"
    _report, document = written(bunzai, f"regex/{piece}", "risu.regex")
    # {{match}} is $&, a literal $ is $$, and $5 (no such capture) is nothing, as SillyTavern fills it
    assert document["data"][0]["out"] == "<i>$&</i> cost  {{user}} "


def test_risu_rules_reach_sillytavern_drawing_the_same(bunzai, tmp_path) -> None:
    piece = imported(bunzai, tmp_path, "regexscript_export.json", RISU_EXPORT)
    report, document = written(bunzai, f"regex/{piece}", "sillytavern.regex")
    assert document["replaceString"] == "<b>{{match}}</b>\nprice: ${{noop}}5 "
    assert (document["placement"], document["markdownOnly"]) == ([1, 2], True)
    codes = {loss["code"] for loss in report["losses"]}
    assert {"regex.replacement.translated", "regex.replacement.lost", "regex.rule.placement.display"} <= codes


def test_formats_name_sillytavern_as_the_engine_of_regex_personas_and_quick_replies(bunzai) -> None:
    formats = {row["format"]: row for row in bunzai("formats", check=True).json["items"]}
    assert {formats[name]["engine"] for name in ("sillytavern.regex", "sillytavern.personas")} == {"sillytavern"}
    assert formats["sillytavern.quickreply"]["engine"] == "sillytavern"


def test_a_replacement_that_ends_in_a_tag_once_its_macros_are_translated_keeps_its_line_end(bunzai, tmp_path) -> None:
    script = dict(ST_SCRIPT, replaceString="<b>$1</b>{{// styled}}")
    piece = imported(bunzai, tmp_path, "tag.json", script)
    _report, document = written(bunzai, f"regex/{piece}", "risu.regex")
    rule = document["data"][0]
    # RisuAI adds a line break after an OUT ending in ">" unless the flag holds <no_end_nl>
    assert rule["out"] == "<b>$01</b>" and "<no_end_nl>" in rule["flag"] and rule["ableFlag"] is True
