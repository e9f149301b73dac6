"""`bunzai preset-verify` on SillyTavern's own context, instruct and sysprompt templates (the corpus
files) with typos written into copies of them and into the card: each finding names the piece the
typo was written in and a JSON pointer into it, where `bunzai read` finds the token at the
finding's line and column."""

from __future__ import annotations

import json
from pathlib import Path

from testkit import corpus_path


def _import(bunzai, path: Path) -> None:
    drafts = bunzai("import", str(path), check=True)
    bunzai("apply", "--yes", input=drafts.stdout, check=True)


def _copy(tmp_path: Path, folder: str, name: str, **changes: str) -> Path:
    """A corpus template renamed `Typo`, with `changes` written into it."""
    native = json.loads(corpus_path("sillytavern", "presets", folder, name).read_text(encoding="utf-8"))
    path = tmp_path / f"Typo-{folder}.json"
    path.write_text(json.dumps(native | {"name": "Typo"} | changes), encoding="utf-8")
    return path


def test_preset_verify_names_the_template_or_card_each_typo_is_written_in(bunzai, tmp_path: Path) -> None:
    _import(bunzai, corpus_path("sillytavern", "presets", "context", "ChatML.json"))
    _import(bunzai, _copy(tmp_path, "sysprompt", "Roleplay - Simple.json", content="SYS {{charr}}"))
    instruct = {"input_sequence": "<|im_start|>user {{usr}}", "story_string_prefix": "{{sytem}}"}
    _import(bunzai, _copy(tmp_path, "instruct", "ChatML.json", user_alignment_message="Hi {{chr}}", **instruct))
    card = tmp_path / "card.json"
    card.write_text(
        json.dumps(
            {
                "spec": "chara_card_v2",
                "spec_version": "2.0",
                "data": {"name": "Ivo", "first_mes": "Halt.", "post_history_instructions": "card phi {{usr}}"},
            }
        ),
        encoding="utf-8",
    )
    _import(bunzai, card)
    args = ("chatml-context", "-c", "ivo", "--instruct", "typo-instruct", "--sysprompt", "typo-sysprompt")
    result = bunzai("preset-verify", *args)
    assert result.code == 1
    found = set()
    for finding in result.json["findings"]:
        text = bunzai("read", finding["piece"], "--pointer", finding["pointer"], check=True).json["value"]
        line = text.split("\n")[finding["line"] - 1]
        assert line[finding["column"] - 1 :].startswith(finding["token"]), finding
        found.add((finding["piece"], finding["pointer"], finding["token"]))
    sequences = "/body/templates/sequences/"
    assert found == {
        ("preset/typo-sysprompt", sequences + "content", "{{charr}}"),
        ("preset/typo-instruct", sequences + "user_alignment_message", "{{chr}}"),
        ("preset/typo-instruct", sequences + "input_sequence", "{{usr}}"),
        ("preset/typo-instruct", sequences + "story_string_prefix", "{{sytem}}"),
        ("character/ivo", "/body/post_history_instructions", "{{usr}}"),
    }
