"""`bunzai apply` given no draft answers with a coded error (never silence), and the hint of an
`occupied` receipt names what the draft's maker can do: apply has no --on-conflict."""

from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize(
    ("given", "code"),
    [("[]", "invalid_input"), ("[ \n ]\n", "invalid_input"), ("", "invalid_json"), ("  \n\t\n", "invalid_json")],
)
def test_input_with_no_draft_is_refused_with_a_code(bunzai, given: str, code: str) -> None:
    result = bunzai("apply", "--yes", input=given)
    assert result.code == 1 and json.loads(result.stdout)["error"]["code"] == code
    assert (
        not (bunzai.studio / ".bunzai" / "changes.jsonl").exists()
        or bunzai("changes", "--since", "0").json["count"] == 0
    )


def test_an_empty_array_in_a_file_is_refused_naming_the_file(bunzai, tmp_path) -> None:
    empty = tmp_path / "none.json"
    empty.write_text("[]\n", encoding="utf-8")
    error = bunzai("apply", str(empty), "--yes").json["error"]
    assert error["code"] == "invalid_input" and error["message"].startswith(f"{empty} holds no drafts")
    assert "bunzai: invalid_input:" in bunzai("apply", str(empty), "--yes").stderr  # the one line on stderr


@pytest.mark.parametrize("given", ["", "  \n", "[]", "[ ]\n"])
def test_allow_empty_applies_nothing_and_succeeds(bunzai, given: str) -> None:
    done = bunzai("apply", "--yes", "--allow-empty", input=given)
    assert (done.code, done.stdout) == (0, "")
    assert "holds no drafts: nothing to apply" in done.stderr
    refused = bunzai("apply", "--yes", "--allow-empty", input="{}")  # a document is still checked
    assert refused.code == 1 and json.loads(refused.stdout)["error"]["code"] == "invalid_draft"


def test_a_reimport_with_skip_pipes_into_apply_with_allow_empty(bunzai, tmp_path) -> None:
    # the script that keeps a studio in step with a library: nothing new is a success, not a failure
    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Ada", "description": "d"}}
    (tmp_path / "ada.json").write_text(json.dumps(card), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(tmp_path), check=True).stdout, check=True)
    again = bunzai("import", "--on-conflict", "skip", str(tmp_path), check=True).stdout
    assert again == ""
    assert bunzai("apply", "--yes", input=again).code == 1
    assert bunzai("apply", "--yes", "--allow-empty", input=again).code == 0


def test_the_hint_of_a_made_draft_onto_a_taken_id_names_no_import_option(bunzai) -> None:
    made = bunzai("create", "character", "--input", '{"name": "Grace Hopper"}', check=True).stdout
    bunzai("apply", "--yes", input=made, check=True)
    hint = bunzai("apply", "--yes", input=made).json["hint"]
    assert "--on-conflict" not in hint  # that draft came from `create`: there is no import to re-run
    assert "create --id" in hint and "duplicate" in hint and "bury" in hint


def test_the_hint_of_an_imported_draft_names_the_three_ways_of_import(bunzai, tmp_path) -> None:
    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Ada", "description": "d"}}
    (tmp_path / "ada.json").write_text(json.dumps(card), encoding="utf-8")
    drafts = bunzai("import", str(tmp_path / "ada.json"), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    refused = bunzai("apply", "--yes", input=drafts).json
    assert refused["reason"] == "occupied"
    for way in ("--on-conflict suffix", "--id", "--on-conflict skip", "bury"):
        assert way in refused["hint"]
