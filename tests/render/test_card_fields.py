"""Card fields as SillyTavern reads them (script.js getCharacterCardFields: each field trimmed and
its own macros filled, `baseChatReplace(field.trim())`): what `{{personality}}`, `{{scenario}}`,
`{{description}}` give (the shipped Default preset's personality_format and scenario_format read
them), and what the description marker and the card's prompt overrides send in chat completion."""

from __future__ import annotations

from bunzai.render.render import render
from bunzai.render.verify import verify
from test_chat_completion import block, loaded, order

# the shipped Default preset's formats (default/content/presets/openai/Default.json)
UTILITY = {
    "personality_format": "[{{char}}'s personality: {{personality}}]",
    "scenario_format": "[Circumstances and context of the dialogue: {{scenario}}]",
}
CARD = {
    "description": "\n  {{char}} guards the gate of {{user}}'s town.  \n",
    "personality": "\n Brave; calls {{user}} 'friend'. \n",
    "scenario": "  {{user}} meets {{char}} at dusk.  ",
    "example_messages": "\n<START>\n{{user}}: Hi\n{{char}}: Halt.\n",
}


def _preset(*identifiers: str, **utility: str) -> dict:
    blocks = [block(i, marker=i != "main", content="Main." if i == "main" else "") for i in identifiers]
    return {"prompts": blocks, "orders": [order(*identifiers)], "utility_prompts": dict(UTILITY, **utility)}


def _sent(preset: dict, card: dict) -> dict[str, list[str]]:
    messages = render(loaded(preset, card=card), stage="final")["messages"]
    out: dict[str, list[str]] = {}
    for message in messages:
        out.setdefault(message["block"], []).append(message["content"])
    return out


def test_personality_and_scenario_formats_read_the_fields_trimmed_and_filled() -> None:
    sent = _sent(_preset("main", "charPersonality", "scenario", "chatHistory"), CARD)
    assert sent["charPersonality"] == ["[Sera's personality: Brave; calls User 'friend'.]"]
    assert sent["scenario"] == ["[Circumstances and context of the dialogue: User meets Sera at dusk.]"]


def test_the_description_is_sent_trimmed() -> None:
    sent = _sent(_preset("main", "charDescription", "chatHistory"), CARD)
    assert sent["charDescription"] == ["Sera guards the gate of User's town."]


def test_a_field_of_only_whitespace_sends_no_format() -> None:
    sent = _sent(
        _preset("main", "charPersonality", "scenario", "chatHistory"), dict(CARD, personality=" \n", scenario=" ")
    )
    assert "charPersonality" not in sent and "scenario" not in sent


def test_the_cards_system_prompt_override_is_sent_trimmed() -> None:
    sent = _sent(_preset("main", "chatHistory"), dict(CARD, system_prompt="\n  Stay terse, {{char}}.  \n"))
    assert sent["main"] == ["Stay terse, Sera."]


def test_a_card_field_macro_in_a_block_gives_the_filled_field() -> None:
    preset = _preset("main", "chatHistory")
    preset["prompts"][0]["content"] = "About: {{description}}|{{mesExamplesRaw}}"
    sent = _sent(preset, CARD)
    assert sent["main"] == ["About: Sera guards the gate of User's town.|<START>\nUser: Hi\nSera: Halt."]


def test_a_card_field_read_inside_a_card_field_is_empty() -> None:
    # baseChatReplace fills a field with replaceCharacterCard: false, so the field macros read
    # nothing; the field was trimmed before, so the space before the macro stays
    sent = _sent(_preset("main", "charPersonality", "chatHistory"), dict(CARD, personality="Calm. {{scenario}}"))
    assert sent["charPersonality"] == ["[Sera's personality: Calm. ]"]


def test_leading_whitespace_before_the_first_start_opens_no_empty_example_block() -> None:
    sent = _sent(_preset("main", "dialogueExamples", "chatHistory"), CARD)
    assert sent["dialogueExamples"] == ["[Example Chat]", "Hi", "Halt."]


def test_a_typo_in_a_field_read_through_a_format_is_reported_where_it_was_written() -> None:
    card = dict(CARD, personality="\n Brave; calls {{usr}} 'friend'.")
    doc = verify(loaded(_preset("main", "charPersonality", "chatHistory"), card=card))
    found = [f for f in doc["findings"] if f["kind"] == "unknown_macro"]
    assert len(found) == 1
    assert (found[0]["piece"], found[0]["pointer"]) == ("character/c", "/body/personality")
    assert (found[0]["line"], found[0]["column"]) == (2, 15)


def test_a_typo_in_the_description_is_reported_once_where_it_was_written() -> None:
    preset = _preset("main", "charDescription", "chatHistory")
    preset["prompts"][0]["content"] = "Again: {{description}}"
    doc = render(loaded(preset, card=dict(CARD, description="  Hello {{usr}}.")), stage="final")
    assert [(p["where"], p["offset"], p["column"]) for p in doc["unresolved"]] == [
        ("character:/body/description", 8, 9)
    ]


def test_mes_examples_heads_each_block_with_start_in_chat_completion() -> None:
    # parseMesExamples: main_api openai heads every block, an empty one too, with `<START>\n`
    preset = _preset("main", "chatHistory")
    preset["prompts"][0]["content"] = "[{{mesExamples}}]"
    sent = _sent(preset, dict(CARD, example_messages="<START>\n<START>\n{{user}}: Hi"))
    assert sent["main"] == ["[<START>\n\n<START>\nUser: Hi\n]"]


def test_a_variable_macro_in_the_description_runs_once() -> None:
    # SillyTavern fills the description once (getCharacterCardFields) and sends that text
    sent = _sent(_preset("main", "charDescription", "chatHistory"), dict(CARD, description="Visit {{incvar::n}}."))
    assert sent["charDescription"] == ["Visit 1."]
