"""A card field's variable macros as SillyTavern runs them. Generate reads every field through
getCharacterCardFields (script.js), which resolves each lazy field (system prompt, examples,
description, personality, persona, scenario, post-history instructions, depth prompt, creator
notes, first message, alternate greetings) with baseChatReplace: every field's {{setvar}} /
{{incvar}} runs once then, on the chat's variables, whether the prompt sends the field or not. A
macro that reads a field later ({{personality}} in personality_format, {{description}} in a
block) fills it again (MacroEnvBuilder: getCharacterCardFieldsLazy, once per substitution), so
its variable macros run again there."""

from __future__ import annotations

from test_card_fields import UTILITY
from test_chat_completion import block, final, order


def _sent(card: dict, main: str, *markers: str) -> dict[str, str]:
    ids = ("main", *markers, "chatHistory")
    blocks = [block(i, main if i == "main" else "", marker=i != "main") for i in ids]
    preset = {"prompts": blocks, "orders": [order(*ids)], "utility_prompts": UTILITY}
    return {m["block"]: m["content"] for m in final(preset, card=card)}


def test_a_field_read_only_through_its_format_keeps_its_variables() -> None:
    # the main prompt comes first and reads what the personality set when Generate filled it
    card = {"description": "D.", "personality": "Calm.{{setvar::mood::glad}}"}
    sent = _sent(card, "Mood: {{getvar::mood}}", "charPersonality")
    assert sent["main"] == "Mood: glad"
    assert sent["charPersonality"] == "[Sera's personality: Calm.]"


def test_a_field_no_prompt_sends_still_runs_its_variables() -> None:
    card = {
        "description": "D.",
        "creator_notes": "{{setvar::seen::yes}}Notes.",
        "depth_prompt": {"text": "{{incvar::n}}"},
    }
    assert _sent(card, "{{getvar::seen}} {{getvar::n}}")["main"] == "yes 1"


def test_a_field_read_by_a_macro_is_filled_again_there() -> None:
    # Generate's fill counts 1; the format's {{personality}} fills it again: 2
    card = {"description": "D.", "personality": "Calm {{incvar::n}}."}
    sent = _sent(card, "Main.", "charPersonality")
    assert sent["charPersonality"] == "[Sera's personality: Calm 2.]"


def test_the_description_marker_sends_the_text_generate_filled() -> None:
    # the marker places Generate's text (no macro reads the field): counted once
    card = {"description": "Visit {{incvar::n}}."}
    assert _sent(card, "Main.", "charDescription")["charDescription"] == "Visit 1."


def test_the_fields_generate_sends_as_filled_count_once() -> None:
    # the card's prompt overrides, its depth prompt and its examples are sent as Generate filled
    # them (systemPromptOverride, jailbreakPromptOverride, charDepthPrompt, mesExamples): their
    # variable macros do not run again where they are placed
    ids = ("main", "dialogueExamples", "chatHistory", "jailbreak")
    blocks = [
        block(i, "Main" if i in ("main", "jailbreak") else "", marker=i not in ("main", "jailbreak")) for i in ids
    ]
    preset = {"prompts": blocks, "orders": [order(*ids)], "utility_prompts": UTILITY}
    card = {
        "description": "D.",
        "system_prompt": "S{{incvar::s}} {{original}}",
        "post_history_instructions": "P{{incvar::p}}",
        "depth_prompt": {"text": "Depth {{incvar::d}}", "depth": 0, "role": "system"},
        "example_messages": "<START>\n{{user}}: Hi {{incvar::e}}\n<START>\n{{user}}: Bye {{incvar::e}}",
    }
    sent = [m["content"] for m in final(preset, card=card)]
    assert {"S1 Main", "P1", "Depth 1", "Hi 1", "Bye 2"} <= set(sent)
