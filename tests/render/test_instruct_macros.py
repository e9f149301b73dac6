"""The instruct macros give the instruct template's sequences with instruct mode on (a template
given with --instruct), '' with it off, as SillyTavern's instruct-macros.js (2.0 engine) and
instruct-mode.js getInstructMacros (legacy) give power_user.instruct's: the first and last
input and output sequences fall back to the plain one when empty."""

from __future__ import annotations

import pytest
from testkit import text_loaded

from bunzai.render.render import render

INSTRUCT = {
    "sequences": {
        "input_sequence": "<|user|>",
        "output_sequence": "<|assistant|>",
        "last_output_sequence": "<|last|>",
        "first_output_sequence": "",
        "system_sequence": "<|system|>",
        "stop_sequence": "<|end|>",
    },
    "options": {"macro": True},
}
STORY = "[{{instructInput}}|{{instructUserPrefix}}|{{instructLastAssistantPrefix}}|{{instructFirstAssistantPrefix}}|"
STORY += "{{instructSystemPrefix}}|{{instructStop}}|{{instructFirstInput}}|{{instructUserSuffix}}]\n"


@pytest.mark.parametrize("engine", ["sillytavern", "sillytavern-legacy"])
def test_the_instruct_macros_give_the_templates_sequences(engine: str) -> None:
    templates = {"instruct": ("inst", {"family": "instruct", "templates": INSTRUCT})}
    doc = render(text_loaded(STORY, {}, templates=templates), stage="final", engine=engine, sysprompt_enabled=False)
    # first output is empty: the output sequence; first input unset: the input sequence
    expected = "[<|user|>|<|user|>|<|last|>|<|assistant|>|<|system|>|<|end|>|<|user|>|]"
    assert expected in doc["prompt"]


def test_with_instruct_mode_off_they_give_nothing() -> None:
    doc = render(text_loaded(STORY, {}), stage="final", sysprompt_enabled=False)
    assert doc["prompt"].startswith("[|||||||]\n")


def test_the_legacy_engine_fills_what_an_instruct_macro_inserts_once() -> None:
    # macros.js: the instruct macros run first (getInstructMacros), then the environment and every
    # later macro over the text, what they inserted included; the 2.0 engine evaluates none of it
    instruct = {"sequences": {"output_sequence": "{{char}} says<USER>: {{instructInput}}", "input_sequence": "IN"}}
    sequences = {"chat_start": "Start {{user}}"}
    templates = {"instruct": ("inst", {"family": "instruct", "templates": instruct | {"options": {}}})}
    story = "[{{instructOutput}}|{{chatStart}}]\n"
    legacy = render(
        text_loaded(story, {}, sequences=sequences, templates=templates),
        stage="final",
        engine="sillytavern-legacy",
        sysprompt_enabled=False,
    )
    assert legacy["prompt"].startswith("[Sera says<USER>: {{instructInput}}|Start User]\n")
    modern = render(
        text_loaded(story, {}, sequences=sequences, templates=templates), stage="final", sysprompt_enabled=False
    )
    assert modern["prompt"].startswith("[{{char}} says<USER>: {{instructInput}}|Start {{user}}]\n")


def test_in_inserted_text_the_legacy_engine_fills_only_the_macros_after_the_inserting_one() -> None:
    # its replacements run in order (the markers, {{roll}}, then getInstructMacros' rows, then the
    # rest): in what {{instructOutput}} inserts, {{instructStop}} and {{chatStart}} (later rows) are
    # filled, {{instructInput}} (an earlier row) and {{roll}} (run before) stay as written
    instruct = {"sequences": {"output_sequence": "O {{instructStop}} {{instructInput}} {{roll:1d1}} {{chatStart}}"}}
    instruct["sequences"] |= {"stop_sequence": "STOP", "input_sequence": "IN"}
    templates = {"instruct": ("inst", {"family": "instruct", "templates": instruct | {"options": {}}})}
    loaded = text_loaded("[{{instructOutput}}]\n", {}, sequences={"chat_start": "CS"}, templates=templates)
    legacy = render(loaded, stage="final", engine="sillytavern-legacy", sysprompt_enabled=False)
    assert legacy["prompt"].startswith("[O STOP {{instructInput}} {{roll:1d1}} CS]\n")


def test_the_system_prompt_text_gets_the_chat_start_the_legacy_engine_replaces_after_it() -> None:
    sysprompt = {"family": "sysprompt", "templates": {"sequences": {"content": "SYS [{{chatStart}}] {{systemPrompt}}"}}}
    loaded = text_loaded(
        "<{{systemPrompt}}>\n", {}, sequences={"chat_start": "CS"}, templates={"sysprompt": ("s", sysprompt)}
    )
    legacy = render(loaded, stage="final", engine="sillytavern-legacy")
    assert legacy["prompt"].startswith("<SYS [CS] {{systemPrompt}}>\n")
