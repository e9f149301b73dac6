"""Crossings translate macros from the source engine to the target's, and report every verdict."""

from __future__ import annotations

import json

import pytest

from testkit import corpus_path

PRESET = {
    "temperature": 1,
    "openai_max_context": 4095,
    "prompts": [
        {
            "identifier": "main",
            "name": "Main Prompt",
            "role": "system",
            "system_prompt": True,
            "content": "Roll {{random::1::10}}. {{setvar::mood::calm}}{{// a note for authors}} {{original}} {{char}}",
        },
        {"identifier": "chatHistory", "name": "Chat History", "system_prompt": True, "marker": True},
    ],
    "prompt_order": [
        {
            "character_id": 100000,
            "order": [{"identifier": "main", "enabled": True}, {"identifier": "chatHistory", "enabled": True}],
        }
    ],
}


@pytest.fixture
def preset(bunzai, tmp_path):
    path = tmp_path / "Macro test.json"
    path.write_text(json.dumps(PRESET, indent=4))
    drafts = bunzai("import", str(path), check=True)
    return bunzai("apply", "--yes", input=drafts.stdout, check=True).json["target"]["id"]


def test_same_engine_crossing_translates_nothing(bunzai, preset):
    report = bunzai("transfer", preset, "--to", "sillytavern.preset.chat", check=True).json
    assert "macros" not in report


def test_a_named_engine_translates_and_reports_every_token(bunzai, preset):
    report = bunzai("transfer", preset, "--to", "sillytavern.preset.chat", "--engine", "agnai", check=True).json
    macros = report["macros"]
    assert macros["from"] == "sillytavern" and macros["to"] == "agnai" and macros["checked"] is True
    tokens = {v["token"]: v for v in macros["verdicts"]}
    assert tokens["{{// a note for authors}}"]["verdict"] == "absent"
    assert tokens["{{original}}"].get("kept") or tokens["{{original}}"]["verdict"] == "portable"
    dropped = [loss for loss in report["losses"] if loss["code"] == "macro.absent"]
    assert any(loss["pointer"] == "/body/prompts/0/content" for loss in dropped)


def test_the_exported_file_carries_the_translated_text(bunzai, preset):
    done = bunzai("export", preset, "--to", "sillytavern.preset.chat", "--engine", "agnai", check=True).json
    written = json.loads((bunzai.studio / done["path"]).read_text())
    content = written["prompts"][0]["content"]
    assert "{{//" not in content
    assert "{{original}}" in content
    assert done["macros"]["counts"]["absent"] >= 1


def test_an_unknown_engine_is_refused(bunzai, preset):
    done = bunzai("transfer", preset, "--to", "sillytavern.preset.chat", "--engine", "nowhere")
    assert done.code == 1 and done.json["error"]["code"] == "not_found"


def test_the_default_preset_crosses_to_lumiverse_and_back_unchanged(bunzai):
    path = corpus_path("sillytavern", "presets", "openai", "Default.json")
    drafts = bunzai("import", str(path), check=True)
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    report = bunzai("transfer", "default", "--to", "sillytavern.preset.chat", "--engine", "lumiverse", check=True).json
    assert report["macros"]["counts"]["portable"] > 0
    assert not [loss for loss in report["losses"] if loss["code"] == "crossing.not_carried"]


def test_a_piece_made_in_bunzai_translates_from_the_engine_named(bunzai):
    draft = bunzai(
        "create",
        "preset",
        "--input",
        json.dumps(
            {
                "name": "Authored",
                "family": "chat_completion",
                "prompts": [{"identifier": "main", "name": "Main", "content": "{{// note}} Hello {{char}}"}],
            }
        ),
        check=True,
    )
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    plain = bunzai("transfer", "authored", "--to", "sillytavern.preset.chat", "--engine", "agnai", check=True).json
    assert "macros" not in plain  # no original: the source engine is unknown, nothing is guessed
    named = bunzai(
        "transfer",
        "authored",
        "--to",
        "sillytavern.preset.chat",
        "--engine",
        "agnai",
        "--from-engine",
        "sillytavern",
        check=True,
    ).json
    assert named["macros"]["from"] == "sillytavern" and named["macros"]["counts"]["absent"] >= 1


def test_a_macro_the_target_reads_as_another_is_a_loss(bunzai, tmp_path):
    # SillyTavern's {{setvar::x::1}} is Marinara's own setvar with other arguments: left as
    # written, it would not set the variable there, so the crossing names it among the losses
    world = {"entries": {"0": {"uid": 0, "key": ["gate"], "content": "{{setvar::x::1}} The gate.", "comment": "Gate"}}}
    path = tmp_path / "Gates.json"
    path.write_text(json.dumps(world))
    bunzai("apply", "--yes", input=bunzai("import", str(path), check=True).stdout, check=True)
    report = bunzai("transfer", "gates", "--to", "marinara.lorebook", check=True).json
    assert [v["verdict"] for v in report["macros"]["verdicts"]] == ["collision"]
    [loss] = [loss for loss in report["losses"] if loss["code"] == "macro.collision"]
    assert loss["pointer"] == "/body/entries/0/content" and "{{setvar::x::1}}" in loss["why"]


def _imported_world(bunzai, tmp_path, name: str, entry: dict) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"entries": {"0": {"uid": 0, "comment": "Sword", **entry}}}))
    done = bunzai("apply", "--yes", input=bunzai("import", str(path), check=True).stdout, check=True)
    return done.json["target"]["id"]


@pytest.mark.parametrize("target", ["risu.lorebook", "agnai.memory.json", "marinara.lorebook"])
def test_a_macro_in_a_key_that_the_target_matches_as_written_is_a_loss(bunzai, tmp_path, target):
    # SillyTavern expands {{char}} in a key before matching it; RisuAI, Agnai and Marinara match
    # the key as written, so the entry no longer fires on the character's name there
    entry = {"key": ["{{char}}'s sword", "blade"], "keysecondary": ["{{user}}"], "content": "A sword."}
    world = _imported_world(bunzai, tmp_path, "Swords", entry)
    report = bunzai("transfer", world, "--to", target, check=True).json
    in_keys = {loss["pointer"]: loss for loss in report["losses"] if loss["code"] == "macro.in_key"}
    assert sorted(in_keys) == ["/body/entries/0/keys/0/text", "/body/entries/0/secondary_keys/0/text"]
    assert in_keys["/body/entries/0/keys/0/text"]["why"].startswith("{{char}}'s sword: sillytavern expands")
    assert [found["key"] for found in report["macros"]["keys"]] == ["{{char}}'s sword", "{{user}}"]


def test_a_key_without_a_macro_crosses_without_a_key_loss(bunzai, tmp_path):
    world = _imported_world(bunzai, tmp_path, "Plain", {"key": ["blade", "{ not a macro }"], "content": "{{char}}"})
    report = bunzai("transfer", world, "--to", "risu.lorebook", check=True).json
    assert not [loss for loss in report["losses"] if loss["code"] == "macro.in_key"]
    assert "keys" not in report["macros"]


def test_keys_are_translated_where_both_engines_expand_them(bunzai, tmp_path):
    # SillyTavern's legacy engine expands keys too, but has no variable shorthand
    world = _imported_world(bunzai, tmp_path, "Moods", {"key": ["{{.mood}}"], "content": "Mood."})
    report = bunzai("transfer", world, "--to", "sillytavern.world", "--engine", "sillytavern-legacy", check=True).json
    assert [v["pointer"] for v in report["macros"]["verdicts"]] == ["/body/entries/0/keys/0/text"]
    assert not [loss for loss in report["losses"] if loss["code"] == "macro.in_key"]
    written = bunzai("export", world, "--to", "sillytavern.world", "--engine", "sillytavern-legacy", check=True).json
    keys = json.loads((bunzai.studio / written["path"]).read_text())["entries"]["0"]["key"]
    assert keys != ["{{.mood}}"] and "mood" in keys[0]


def test_a_risuai_key_that_sillytavern_would_expand_is_a_loss(bunzai, tmp_path):
    # RisuAI matches "{{user}}" as written; SillyTavern would match the persona's name instead
    entry = {"key": "{{user}}, lantern", "secondkey": "", "insertorder": 100, "comment": "Lamp", "content": "x"}
    path = tmp_path / "Lamps.json"
    path.write_text(json.dumps({"type": "risu", "ver": 1, "data": [entry | {"mode": "normal", "alwaysActive": False}]}))
    done = bunzai("apply", "--yes", input=bunzai("import", str(path), check=True).stdout, check=True)
    report = bunzai("transfer", done.json["target"]["id"], "--to", "sillytavern.world", check=True).json
    [loss] = [loss for loss in report["losses"] if loss["code"] == "macro.in_key"]
    assert loss["pointer"] == "/body/entries/0/keys/0/text"
    assert (
        loss["why"]
        == "{{user}}: sillytavern expands the macros in a lorebook key before matching it, risuai matches it as written"
    )


def test_a_literal_body_the_target_will_run_is_a_loss_saying_so(bunzai, tmp_path):
    # RisuAI prints a #pure body as text; Agnai has no way to say so and runs its macros
    entry = {"key": "lamp", "secondkey": "", "insertorder": 100, "comment": "Lamp", "mode": "normal"}
    entry |= {"alwaysActive": False, "content": "{{#pure}}{{random::a::b}}{{/pure}}"}
    path = tmp_path / "Pure.json"
    path.write_text(json.dumps({"type": "risu", "ver": 1, "data": [entry]}))
    done = bunzai("apply", "--yes", input=bunzai("import", str(path), check=True).stdout, check=True)
    report = bunzai("transfer", done.json["target"]["id"], "--to", "agnai.memory.json", check=True).json
    [loss] = [loss for loss in report["losses"] if loss["code"] == "macro.flatten"]
    assert loss["why"].startswith("{{#pure}}: risuai prints this body as text")
    assert "{{random::a::b}}" in loss["why"] and "first branch" not in loss["why"]
