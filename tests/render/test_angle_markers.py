"""SillyTavern's angle markers of the Tavern days (`<USER>`, `<BOT>`, `<CHAR>`, `<GROUP>`,
`<CHARIFNOTGROUP>`, any case) are filled by both of its engines before any macro: the 2.0 engine
rewrites them into `{{user}}`, `{{char}}`, `{{group}}` and `{{charIfNotGroup}}` (MacroEngine.js,
the core:legacy-markers pre-processor), the legacy one replaces them first (macros.js
evaluateMacros). A problem found after one is placed where it stands in the text as written."""

from __future__ import annotations

import pytest

from testkit import text_loaded

from bunzai.render.macro_eval import MacroContext, MacroEvaluator
from bunzai.render.render import render

STORY = "{{#if description}}{{description}}\n{{/if}}"


def _render(card: dict, engine: str = "sillytavern", story: str = STORY) -> dict:
    return render(text_loaded(story, card), stage="final", engine=engine, sysprompt_enabled=False)


@pytest.mark.parametrize("engine", ["sillytavern", "sillytavern-legacy"])
def test_the_markers_of_a_card_field_are_filled(engine: str) -> None:
    doc = _render({"description": "<BOT> greets <user>. <Char> and <GROUP>, <CHARIFNOTGROUP>."}, engine)
    assert doc["prompt"].startswith("Sera greets User. Sera and Sera, Sera.\n")


def test_a_marker_inside_a_macro_argument_is_filled_first() -> None:
    evaluated = MacroEvaluator(MacroContext(char="Sera")).evaluate("{{setvar::who::<BOT>}}{{getvar::who}}", "x")
    assert evaluated.text == "Sera"


def test_a_problem_after_a_marker_is_placed_in_the_text_as_written() -> None:
    text = "<USER> and <BOT>:\n{{nosuchmacro}}"
    [problem] = MacroEvaluator(MacroContext(char="Sera")).evaluate(text, "x").problems
    assert problem["offset"] == text.index("{{nosuchmacro}}")
    assert (problem["line"], problem["column"]) == (2, 1)


def test_other_engines_leave_angle_brackets_alone() -> None:
    assert MacroEvaluator(MacroContext(char="Sera"), "risuai").evaluate("<BOT>", "x").text == "<BOT>"


def test_a_field_read_through_a_macro_gives_its_markers_filled() -> None:
    # getCharacterCardFields fills each field first (baseChatReplace): a field of markers alone too,
    # and a macro reading it in the story string's text gives it filled
    doc = _render({"personality": "<BOT> hums."}, story="[{{personality}}]\n")
    assert doc["prompt"].startswith("[Sera hums.]\n")


def _text_render(instruct: dict | None, context_sequences: dict, card: dict) -> dict:
    templates = {"instruct": ("inst", {"family": "instruct", "templates": instruct})} if instruct else {}
    story = context_sequences.pop("story_string")
    loaded = text_loaded(story, card, sequences=context_sequences, templates=templates)
    return render(loaded, stage="final", sysprompt_enabled=False)


def test_an_instruct_sequence_and_the_example_separator_fill_their_markers() -> None:
    # instruct-mode.js fills a sequence's macros (substituteParams, with `macro` on); the example
    # separator is substituted as a heading (parseMesExamples)
    instruct = {"sequences": {"input_sequence": "<USER> says:", "output_sequence": "<BOT> says:"}, "options": {}}
    sequences = {"story_string": STORY, "example_separator": "Ex <USER>"}
    doc = _text_render(instruct, sequences, {"description": "A.", "example_messages": "<START>\n{{user}}: hi"})
    prompt = doc["prompt"]
    assert "<USER>" not in prompt and "<BOT>" not in prompt
    assert "Ex User" in prompt and "User says:\nHello." in prompt and prompt.endswith("Sera says:\n")


def test_the_original_a_cards_prompt_brings_has_its_markers_filled() -> None:
    # openai.js takes {{original}} from the prompt collection preparePrompt has already substituted
    from test_chat_completion import block, final, order

    preset = {"prompts": [block("main", "Main for <BOT>."), block("chatHistory", marker=True)]}
    preset["orders"] = [order("main", "chatHistory")]
    messages = final(preset, card={"description": "A.", "system_prompt": "{{original}} Terse."})
    assert messages[0]["content"] == "Main for Sera. Terse."


def test_the_legacy_engine_leaves_the_markers_of_an_inserted_system_prompt() -> None:
    # macros.js replaces the markers before its instruct macros insert the system prompt's text
    sysprompt = {"family": "sysprompt", "templates": {"sequences": {"content": "SYS <USER> and {{char}}"}}}
    loaded = text_loaded("[{{systemPrompt}}]\n", {}, templates={"sysprompt": ("sys", sysprompt)})
    legacy = render(loaded, stage="final", engine="sillytavern-legacy")
    assert legacy["prompt"].startswith("[SYS <USER> and Sera]\n")
