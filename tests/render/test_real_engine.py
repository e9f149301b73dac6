"""Real-engine mode: a SillyTavern checkout's own macro engine against bunzai's evaluator.

The agreement table runs only where a checkout is configured for the tests (BUNZAI_ST_ROOT)
and node is present; it is skipped with the reason otherwise. The disagreements it finds
are the ones docs/render-vs-engine.md lists as known (KNOWN below); any other fails.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bunzai.render.macro_eval import MacroContext
from bunzai.render.st_real import compare, configured_root, run_engine

TABLE = [
    "{{user}}",
    "{{char}}",
    "{{USER}} and {{Char}}",
    "{{creatorNotes}}",
    "{{description}}",
    "{{personality}}",
    "{{scenario}}",
    "{{persona}}",
    "{{charPrompt}}",
    "{{charJailbreak}}",
    "{{charDepthPrompt}}",
    "{{charVersion}}",
    "{{char_version}}",
    "{{model}}",
    "{{group}}",
    "{{newline}}",
    "a{{newline}}b",
    "x\n{{trim}}\ny",
    "{{noop}}",
    "{{reverse:abc}}",
    "{{// a note}}kept",
    "{{lastMessage}}",
    "{{lastUserMessage}}",
    "{{lastCharMessage}}",
    "{{lastMessageId}}",
    "{{date}}",
    "{{time}}",
    "{{isodate}}",
    "{{isotime}}",
    "{{time_UTC+2}}",
    "{{time_utc-7}}",
    "{{time_UTC+60}}",
    "{{time_UTC+16}}",
    "{{time_UTC-00}}",
    "{{weekday}}",
    "{{datetimeformat YYYY-MM-DD}}",
    "{{setvar::mood::calm}}",
    "{{setvar::n::1}}\n{{getvar::n}}",
    "{{setvar::k::2}}\n{{addvar::k::3}}\n{{getvar::k}}",
    "{{setvar::c::1}}\n{{incvar::c}}",
    "{{setvar::d::5}}\n{{decvar::d}}",
    "{{getvar::missing}}",
    "{{setglobalvar::g::7}}\n{{getglobalvar::g}}",
    "{{addglobalvar::h::2}}\n{{getglobalvar::h}}",
    "{{incglobalvar::i}}",
    "{{charr}}",
    "plain text with no macros",
    "{{user}}'s {{char}}: {{description}}",
    "{{setvar::x::5}}{{getvar::x}}",
]
# Where bunzai's evaluator and SillyTavern's legacy engine are known to differ (listed in
# docs/render-vs-engine.md): the legacy engine reads a line's getvar before its setvar.
KNOWN = {"{{setvar::x::5}}{{getvar::x}}"}


def context() -> MacroContext:
    return MacroContext(
        user="Ann",
        char="Sera",
        description="A healer.",
        personality="kind",
        scenario="A glade.",
        persona="A traveller.",
        system_prompt="Be Sera.",
        post_history="Stay in character.",
        depth_prompt="Sera is tired.",
        version="1.0",
        model="gpt-test",
        chat=[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}],
    )


def checkout() -> str:
    root = os.environ.get("BUNZAI_ST_ROOT")
    if not root:
        pytest.skip("no SillyTavern checkout configured for the tests (set BUNZAI_ST_ROOT to one)")
    if shutil.which("node") is None:
        pytest.skip("node is not on the PATH")
    return root


def test_the_table_agrees_but_for_the_known_differences() -> None:
    assert len(TABLE) >= 40
    result = compare(checkout(), [(f"table/{i}", text) for i, text in enumerate(TABLE)], context())
    assert result["available"], result.get("reason")
    assert result["compared"] == len(TABLE) - 1  # every text but plain text holds a macro
    assert {d["text"] for d in result["disagreements"]} == KNOWN


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on the PATH")
def test_an_unloadable_checkout_says_so(tmp_path: Path) -> None:
    scripts = tmp_path / "public" / "scripts"
    scripts.mkdir(parents=True)
    (scripts / "macros.js").write_text("export function evaluateMacros(", encoding="utf-8")
    answer = run_engine(str(tmp_path), ["{{user}}"], context())
    assert answer["available"] is False and "cannot be loaded headless" in answer["reason"]
    assert run_engine(str(tmp_path / "nowhere"), ["{{user}}"], context())["available"] is False


def test_the_environment_outranks_the_studio_setting(bunzai, monkeypatch) -> None:
    from bunzai.store.studio import find_studio

    (bunzai.studio / "bunzai.toml").write_text(
        '[studio]\nformat = 1\n\n[engines]\nsillytavern = "st"\n', encoding="utf-8"
    )
    studio = find_studio(str(bunzai.studio))
    monkeypatch.delenv("BUNZAI_ST_ROOT", raising=False)
    assert configured_root(studio) == str(bunzai.studio / "st")
    monkeypatch.setenv("BUNZAI_ST_ROOT", "/elsewhere")
    assert configured_root(studio) == "/elsewhere"
    monkeypatch.delenv("BUNZAI_ST_ROOT")
    assert configured_root(None) is None


def test_render_reports_the_real_engine_when_configured(bunzai, tmp_path: Path) -> None:
    (bunzai.studio / "bunzai.toml").write_text(
        f'[studio]\nformat = 1\n\n[engines]\nsillytavern = "{tmp_path / "no-st"}"\n', encoding="utf-8"
    )
    draft = bunzai(
        "create",
        "preset",
        "--input",
        '{"name": "Tiny", "prompts": [{"identifier": "main", "content": "Hi {{user}}"}],'
        ' "orders": [{"target": "global", "items": [{"identifier": "main"}]}]}',
        check=True,
    )
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    card = bunzai("create", "character", "--input", '{"name": "Ivo"}', check=True)
    bunzai("apply", "--yes", input=card.stdout, check=True)
    doc = bunzai("render", "tiny", "-c", "ivo", check=True).json
    assert doc["real_engine"]["available"] is False
    assert "no public/scripts/macros.js" in doc["real_engine"]["reason"]
