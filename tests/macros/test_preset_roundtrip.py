"""The real SillyTavern default chat-completion preset, through Marinara and back."""

from __future__ import annotations

import json

from testkit import corpus_path

from bunzai.macros.translate import translate_text


def _prompt_texts() -> list[str]:
    preset = json.loads(corpus_path("sillytavern", "presets", "openai", "Default.json").read_text(encoding="utf-8"))
    return [p["content"] for p in preset.get("prompts", []) if "{{" in (p.get("content") or "")]


def test_every_portable_token_comes_back_as_written() -> None:
    texts = _prompt_texts()
    assert texts
    for text in texts:
        there = translate_text(text, "sillytavern", "marinara")
        assert there.checked and there.verdicts
        back = translate_text(there.text, "marinara", "sillytavern")
        returned = {v["token"] for v in back.verdicts if v["verdict"] == "portable"} | {
            v.get("to") for v in back.verdicts
        }
        for verdict in there.verdicts:
            if verdict["verdict"] == "portable":
                assert verdict["token"] in returned, (verdict, back.verdicts)
