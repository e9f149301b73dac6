"""The chat-completion description as SillyTavern sends it: Generate takes it from
getCharacterCardFields (script.js), trimmed and run through baseChatReplace on its own, with no
card fields to read, and preparePromptsForChatCompletion (openai.js) places that text at the
`charDescription` marker. So a `{{scenario}}` inside the description reads nothing in the 2.0
engine, and its variable macros run once, when it is filled, before the prompts that read them."""

from __future__ import annotations

from test_chat_completion import block, final

PRESET = {
    "prompts": [
        block("main", "Main {{getvar::mood}}."),
        block("charDescription", marker=True),
        block("chatHistory", marker=True),
    ],
    "order": [{"identifier": i, "enabled": True} for i in ("charDescription", "main", "chatHistory")],
}


def _preset() -> dict:
    return {
        "prompts": PRESET["prompts"],
        "prompt_orders": [{"character_id": 100001, "items": PRESET["order"]}],
    }


def test_a_card_field_macro_inside_the_description_reads_nothing() -> None:
    card = {"description": "A healer {{scenario}}at the glade.", "scenario": "At dusk."}
    contents = [m["content"] for m in final(_preset(), card=card)]
    assert "A healer at the glade." in contents


def test_the_descriptions_variable_macros_run_once_when_it_is_filled() -> None:
    # filled before any prompt is placed: the main prompt after it reads the mood it set, and an
    # incvar in it counts once
    card = {"description": "Calm.{{setvar::mood::glad}}{{incvar::n}}{{getvar::n}}"}
    contents = [m["content"] for m in final(_preset(), card=card)]
    assert "Calm.11" in contents and "Main glad." in contents  # incvar prints the new value
