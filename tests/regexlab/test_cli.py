"""The regex lab end to end: the real `bunzai` command, one JSON document, coded refusals."""

from __future__ import annotations

import json


def test_try_prints_matches_and_the_replaced_text(bunzai) -> None:
    out = bunzai(
        "regex-lab", "try", "/\\*(.+?)\\*/g", "--text", "Hi *waves*", "--replace", "<i>$1</i>", check=True
    ).json
    assert out["count"] == 1 and out["matches"][0]["groups"] == ["waves"] and out["result"] == "Hi <i>waves</i>"


def test_try_refuses_the_catastrophic_pattern_with_exit_1(bunzai) -> None:
    done = bunzai("regex-lab", "try", "(a+)+$", "--text", "a" * 40 + "b")
    assert done.code == 1 and done.json["error"]["code"] == "regex_timeout"
    assert "(a+)+$" in done.json["error"]["message"] and done.stderr.startswith("bunzai: regex_timeout")


def test_try_reads_a_file_or_a_piece(bunzai, tmp_path) -> None:
    text = tmp_path / "t.txt"
    text.write_text("one two", encoding="utf-8")
    assert bunzai("regex-lab", "try", "/\\w+/g", "--file", str(text), check=True).json["count"] == 2
    bunzai(
        "apply",
        "--yes",
        input=bunzai("create", "character", "--input", '{"name": "Ann", "nickname": "Nan"}').stdout,
        check=True,
    )
    found = bunzai("regex-lab", "try", "/N\\w+/g", "character/ann", "--pointer", "/body/nickname", check=True).json
    assert [m["match"] for m in found["matches"]] == ["Nan"]


def test_try_wants_exactly_one_text(bunzai) -> None:
    done = bunzai("regex-lab", "try", "a")
    assert done.code == 2 and done.json["error"]["code"] == "usage"


def test_race_explain_recipes_and_from_examples_answer_json(bunzai) -> None:
    raced = bunzai("regex-lab", "race", "/a+/g", "/(a+)+$/", "--text", "a" * 30 + "b", check=True).json
    assert raced["candidates"][1]["error"]["code"] == "regex_timeout"
    assert bunzai("regex-lab", "explain", "a|b", check=True).json["compiles"] is True
    assert bunzai("regex-lab", "recipes", "thoughts", check=True).json["result"].startswith("I should leave.")
    built = bunzai(
        "regex-lab", "from-examples", "--match", "*waves*", "--match", "*nods*", "--no-match", "plain", check=True
    ).json
    assert built["score"] == 1.0


def test_lint_reads_a_platform_file_and_flags_the_catastrophic_rule(bunzai, tmp_path) -> None:
    path = tmp_path / "rules.json"
    path.write_text(
        json.dumps(
            [
                {"scriptName": "runaway", "findRegex": "/(a+)+$/g", "replaceString": "", "placement": [2]},
                {"scriptName": "fine", "findRegex": "/b+/g", "replaceString": "", "placement": [2]},
            ]
        )
    )
    report = bunzai("regex-lab", "lint", str(path), check=True).json
    assert [(f["name"], f["kind"]) for f in report["findings"]] == [("runaway", "catastrophic_backtracking")]


def test_an_import_with_a_broken_pattern_warns_and_still_imports(bunzai, tmp_path) -> None:
    path = tmp_path / "broken.json"
    path.write_text(
        json.dumps({"scriptName": "broken", "findRegex": "/(unclosed/g", "replaceString": "", "placement": [2]})
    )
    drafts = bunzai("import", str(path), check=True)
    warnings = drafts.lines[0]["operations"][0]["warnings"]
    assert any("does not compile" in w for w in warnings)
    assert bunzai("apply", "--yes", input=drafts.stdout, check=True).json["status"] == "applied"
    stored = bunzai("list", check=True).stdout
    assert "broken" in stored


def test_a_drawing_becomes_a_rule_that_cap_run_accepts(bunzai, tmp_path) -> None:
    drawing = tmp_path / "card.html"
    drawing.write_text('<div class="mood">\n  {{slot::mood}} costs $3\n</div>\n', encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("create", "regex", "--input", '{"name": "Display"}').stdout, check=True)
    rule = bunzai(
        "regex-from-drawing",
        str(drawing),
        "--pattern",
        "/\\[mood:(\\w+)\\]/g",
        "--slot",
        "mood=1",
        "--sample",
        "ok [mood:calm]",
        check=True,
    )
    assert set(rule.json) == {"rules"} and "matched 1 time" in rule.stderr
    draft = bunzai("cap", "run", "regex.rules.add", "regex/display", "--input", "-", input=rule.stdout, check=True).json
    assert draft["proposed"]["body"]["rules"][0]["replacement"] == '<div class="mood"> $01 costs $$3 </div>'


def test_regex_from_drawing_refuses_a_slot_past_the_groups(bunzai, tmp_path) -> None:
    drawing = tmp_path / "card.html"
    drawing.write_text("<b>{{a}}</b><i>{{b}}</i>", encoding="utf-8")
    done = bunzai("regex-from-drawing", str(drawing), "--pattern", "/(x)(y)/", "--slot", "a=1", "--slot", "b=3")
    assert done.code == 1 and done.json["error"]["code"] == "invalid_input" and "'b'" in done.json["error"]["message"]
    missed = bunzai("regex-from-drawing", str(drawing), "--pattern", "/(x)(y)/", "--slot", "a=1", "--sample", "zzz")
    assert missed.code == 1 and missed.json["error"]["code"] == "regex_no_match"


def test_html_will_draw_reads_a_file_and_a_studio_drawing(bunzai, tmp_path) -> None:
    markup = '<form><input></form><img src="https://x.test/a.png"><b onclick="f()">x</b>'
    drawing = tmp_path / "card.html"
    drawing.write_text(markup, encoding="utf-8")
    from_file = bunzai("html-will-draw", str(drawing), check=True).json
    create = bunzai("create", "htmldoc", "--input", json.dumps({"name": "Card", "markup": markup}))
    bunzai("apply", "--yes", input=create.stdout, check=True)
    from_studio = bunzai("html-will-draw", "htmldoc/card", check=True).json
    assert from_file == from_studio
    assert [h["handler"] for h in from_file["inline_handlers"]] == ["onclick"]


def test_half_an_emoji_in_a_result_is_printed_as_an_escape_not_a_crash(bunzai) -> None:
    out = bunzai("regex-lab", "try", "/./g", "--text", "\U0001f642", check=True)
    assert [m["match"] for m in out.json["matches"]] == ["\ud83d", "\ude42"] and "\\ud83d" in out.stdout


def test_lint_reads_a_studio_set_by_its_ref(bunzai) -> None:
    create = bunzai(
        "create",
        "regex",
        "--input",
        json.dumps(
            {
                "name": "Mine",
                "rules": [
                    {"name": "nowhere", "pattern": "x", "placements": []},
                    {"name": "fine", "pattern": "y", "placements": ["ai_output"]},
                ],
            }
        ),
    )
    bunzai("apply", "--yes", input=create.stdout, check=True)
    report = bunzai("regex-lab", "lint", "regex/mine", check=True).json
    assert report["set"] == "mine" and [(f["name"], f["kind"]) for f in report["findings"]] == [
        ("nowhere", "runs_on_nothing")
    ]
