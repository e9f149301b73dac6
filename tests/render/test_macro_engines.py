"""Which SillyTavern macro engine render follows. A new SillyTavern has the Macros 2.0 engine on
(power_user.experimental_macro_engine: true in public/scripts/power-user.js and in a new user's
default/content/settings.json), so render follows it unless told `--macro-engine legacy`.

The engines differ inside a card field: getCharacterCardFields fills a field with
`replaceCharacterCard: false`. The 2.0 engine's card-field handlers then give '' (no card to
read); the legacy engine has no such macros in its environment and leaves the token as written
(substituteParamsLegacy, evaluateMacros), so the prompt that sends the field fills it later: the
story string's substitution, the marker's preparePrompt, the format that reads the field."""

from __future__ import annotations

import json
from pathlib import Path

from bunzai.render.render import render
from test_card_fields import UTILITY
from test_chat_completion import block, loaded, order

CARD = {
    "description": "Guards the gate. {{scenario}}",
    "personality": "Calm. {{scenario}}",
    "scenario": "At dusk.",
}


def _chat_completion(engine: str | None) -> dict[str, str]:
    ids = ("main", "charDescription", "charPersonality", "chatHistory")
    blocks = [block(i, "Main." if i == "main" else "", marker=i != "main") for i in ids]
    doc = loaded({"prompts": blocks, "orders": [order(*ids)], "utility_prompts": UTILITY}, card=dict(CARD))
    kwargs = {"engine": engine} if engine else {}
    return {m["block"]: m["content"] for m in render(doc, stage="final", **kwargs)["messages"]}


def _story(engine: str | None) -> str:
    context = {"family": "context", "templates": {"sequences": {"story_string": "{{description}}\n"}, "options": {}}}
    doc = loaded(context, card=dict(CARD))
    doc["templates"] = {"sysprompt": ("sys", {"family": "sysprompt", "templates": {"sequences": {"content": ""}}})}
    kwargs = {"engine": engine} if engine else {}
    return render(doc, stage="final", **kwargs)["prompt"]


def test_the_default_engine_is_2_0_where_a_card_field_inside_a_field_reads_nothing() -> None:
    sent = _chat_completion(None)
    # the field was trimmed before it was filled: the space before the macro stays
    assert sent["charDescription"] == "Guards the gate. "
    assert sent["charPersonality"] == "[Sera's personality: Calm. ]"
    assert _story(None).startswith("Guards the gate. \n")


def test_the_legacy_engine_leaves_it_for_the_prompt_that_sends_the_field() -> None:
    sent = _chat_completion("sillytavern-legacy")
    assert sent["charDescription"] == "Guards the gate. At dusk."
    assert sent["charPersonality"] == "[Sera's personality: Calm. At dusk.]"
    assert _story("sillytavern-legacy").startswith("Guards the gate. At dusk.\n")


def test_the_command_picks_the_engine(bunzai, tmp_path: Path) -> None:
    preset = {
        "chat_completion_source": "openai",
        "prompts": [{"identifier": "main", "content": "Main."}, {"identifier": "charDescription", "marker": True}],
        "prompt_order": [
            {"character_id": 100001, "order": [{"identifier": i, "enabled": True} for i in ("main", "charDescription")]}
        ],
    }
    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Ivo", **CARD}}
    for name, document in (("Tiny.json", preset), ("ivo.json", card)):
        (tmp_path / name).write_text(json.dumps(document), encoding="utf-8")
        bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / name), check=True).stdout, check=True)

    def described(*engine: str) -> str:
        doc = json.loads(bunzai("render", "tiny", "--character", "ivo", "--stage", "final", *engine, check=True).stdout)
        return next(m["content"] for m in doc["messages"] if m["block"] == "charDescription")

    assert described() == "Guards the gate. "
    assert described("--macro-engine", "legacy") == "Guards the gate. At dusk."
    assert described("--macro-engine", "2.0") == "Guards the gate. "
    refused = bunzai("render", "tiny", "--character", "ivo", "--macro-engine", "1.0")
    assert refused.code == 2 and "legacy" in refused.stdout + refused.stderr


def test_the_mcp_tools_pick_the_engine_and_the_system_prompt_switch(bunzai, tmp_path: Path) -> None:
    from bunzai.mcp.dispatch import Dispatcher
    from bunzai.mcp.handles import Handles
    from bunzai.store.studio import Studio
    from bunzai.tools.contract import Context

    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Ivo", **CARD}}
    context = {
        "story_string": "{{#if system}}{{system}}\n{{/if}}{{description}}\n",
        "chat_start": "",
        "names_as_stop_strings": True,
    }
    for name, document in (("ivo.json", card), ("Tc.json", context)):
        (tmp_path / name).write_text(json.dumps(document), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "ivo.json"), check=True).stdout, check=True)
    drafts = bunzai("import", str(tmp_path / "Tc.json"), "--format", "sillytavern.context", check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    session = Dispatcher(Context(studio=Studio(bunzai.studio), handles=Handles()))

    def prompt(**extra) -> str:
        arguments = {"preset": "tc-context", "character": "ivo", "chat": [{"role": "user", "content": "Hi."}], **extra}
        called = session.call("preset_render", arguments, "2025-06-18")
        assert not called["isError"], called
        return called["structuredContent"]["render"]["data"]["prompt"]

    assert prompt().startswith("Write Ivo's next reply in a fictional chat between Ivo and User.\nGuards the gate. \n")
    assert prompt(macro_engine="legacy", sysprompt_off=True).startswith("Guards the gate. At dusk.\n")
