"""A flag "does nothing" only where it does nothing on the rule's platform: RisuAI compiles a
script with no flags as `g` (scripts.ts: `script.flag || 'g'`), so there a lone flag is what
keeps the rule to its first match."""

from __future__ import annotations

import json

from bunzai.model.regex import RegexRule
from bunzai.regexlab.lint import lint_set


def one_rule_set(flags: str, pattern: str = "a", fmt: str | None = None) -> dict:
    rule = RegexRule(name="r", pattern=pattern, flags=flags, placements=["ai_output"]).model_dump(mode="json")
    piece = {"kind": "regex", "id": "s", "name": "s", "body": {"rules": [rule]}}
    if fmt:
        piece["original"] = {"format": fmt, "document": None}
    return piece


def messages(report: dict) -> list[str]:
    return [f["message"] for f in report["findings"] if f["kind"] == "flag_does_nothing"]


def test_a_lone_d_on_a_risu_rule_is_its_first_match_only_flag():
    assert lint_set(one_rule_set("d", fmt="risu.regex"))["clean"]
    assert messages(lint_set(one_rule_set("d"))) == [
        "flag 'd' does nothing here: it records match positions, which a replacement never reads"
    ]


def test_d_beside_another_flag_still_does_nothing_on_risu():
    found = messages(lint_set(one_rule_set("di", fmt="risu.regex")))
    assert len(found) == 1 and "flag 'd'" in found[0]


def test_a_lone_idle_flag_on_a_risu_rule_says_to_keep_a_d_in_its_place():
    (risu,) = messages(lint_set(one_rule_set("m", fmt="risu.regex")))
    (tavern,) = messages(lint_set(one_rule_set("m")))
    assert risu.startswith(tavern) and "write 'd' in its place" in risu and "'d'" not in tavern
    (two,) = messages(lint_set(one_rule_set("mg", fmt="risu.regex")))
    assert two == tavern  # another flag is left: RisuAI keeps to what the flags say


def test_lint_of_a_risu_export_file_keeps_quiet_about_its_lone_d(bunzai, tmp_path):
    path = tmp_path / "regexscript_export.json"
    scripts = [
        {"comment": "first only", "in": "x", "out": "y", "type": "editoutput", "flag": "d", "ableFlag": True},
        {"comment": "idle d", "in": "q", "out": "z", "type": "editoutput", "flag": "dg", "ableFlag": True},
    ]
    path.write_text(json.dumps({"type": "regex", "data": scripts}))
    report = bunzai("regex-lab", "lint", str(path), check=True).json
    assert report["platform"] == "risuai"
    assert [(f["name"], f["kind"]) for f in report["findings"]] == [("idle d", "flag_does_nothing")]
