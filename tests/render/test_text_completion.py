"""Text completion: the story string's Handlebars subset, and a corpus context + instruct +
sysprompt render whose prompt is checked against the template files themselves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bunzai.render.story_string import render_story_string
from testkit import corpus_path


@pytest.mark.parametrize(
    ("template", "params", "expected"),
    [
        ("{{#if a}}A{{/if}}", {"a": "x"}, "A"),
        ("{{#if a}}A{{/if}}", {"a": ""}, ""),
        ("{{#if a}}A{{else}}B{{/if}}", {"a": " "}, "B"),
        ("{{#unless a}}U{{/unless}}", {"a": ""}, "U"),
        ("{{#if a}}{{#if b}}AB{{else}}A{{/if}}{{/if}}", {"a": "1", "b": ""}, "A"),
        ("{{description}} {{getvar::x}} {{// note}}", {"description": "D"}, "D {{getvar::x}} {{// note}}"),
        ("\n\n{{char}}", {"char": "Sera"}, "Sera"),
    ],
)
def test_story_string_subset(template: str, params: dict, expected: str) -> None:
    assert render_story_string(template, params) == expected


def _import(bunzai, path: Path, *, check: bool = True) -> None:
    drafts = bunzai("import", str(path), check=True)
    bunzai("apply", "--yes", input=drafts.stdout, check=check)


def test_context_instruct_sysprompt_render(bunzai, tmp_path: Path) -> None:
    files = {
        "context": ("presets", "context", "Default.json"),
        "instruct": ("presets", "instruct", "ChatML.json"),
        "sysprompt": ("presets", "sysprompt", "Neutral - Chat.json"),
        "card": ("characters", "default_Seraphina.png"),
    }
    for parts in files.values():
        _import(bunzai, corpus_path("sillytavern", *parts))
    instruct = json.loads(corpus_path("sillytavern", *files["instruct"]).read_text(encoding="utf-8"))
    sysprompt = json.loads(corpus_path("sillytavern", *files["sysprompt"]).read_text(encoding="utf-8"))
    chat = tmp_path / "chat.json"
    messages = [{"role": "user", "content": "Hello there."}, {"role": "assistant", "content": "Welcome, traveller."}]
    chat.write_text(json.dumps(messages), encoding="utf-8")
    doc = bunzai(
        "render",
        "default-context",
        "-c",
        "seraphina",
        "--instruct",
        "chatml-instruct",
        "--sysprompt",
        "neutral-chat-sysprompt",
        "--chat",
        str(chat),
        check=True,
    ).json
    assert doc["mode"] == "text_completion" and doc["unresolved"] == []
    prompt = doc["prompt"]
    system = sysprompt["content"].replace("{{char}}", "Seraphina").replace("{{user}}", "User")
    # This ChatML template has no story_string_prefix, so SillyTavern sends the story string unwrapped.
    assert "story_string_prefix" not in instruct and prompt.startswith(system + "\n")
    user_turn = instruct["input_sequence"] + "\nUser: Hello there." + instruct["input_suffix"]
    reply_turn = instruct["output_sequence"] + "\nSeraphina: Welcome, traveller." + instruct["output_suffix"]
    assert prompt.index(user_turn) < prompt.index(reply_turn)
    assert prompt.endswith(instruct["output_sequence"] + "\nSeraphina:")
    text = bunzai(
        "render",
        "default-context",
        "-c",
        "seraphina",
        "--instruct",
        "chatml-instruct",
        "--chat",
        str(chat),
        "--text",
        check=True,
    )
    assert text.stdout.rstrip("\n").endswith("Seraphina:")


def test_an_instruct_template_alone_asks_for_a_context(bunzai) -> None:
    _import(bunzai, corpus_path("sillytavern", "presets", "instruct", "ChatML.json"))
    _import(bunzai, corpus_path("sillytavern", "characters", "default_Seraphina.png"))
    result = bunzai("render", "chatml-instruct", "-c", "seraphina")
    assert result.code == 2 and "--context" in result.json["error"]["hint"]
    wrong = bunzai("render", "chatml-instruct", "-c", "seraphina", "--context", "chatml-instruct")
    assert wrong.code == 1 and wrong.json["error"]["code"] == "invalid_input"
