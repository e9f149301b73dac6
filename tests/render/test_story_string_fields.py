"""The text-completion story string's fields as SillyTavern fills them: Generate takes them from
getCharacterCardFields (script.js), each field trimmed and run through baseChatReplace on its
own (`substituteParams(field, {replaceCharacterCard: false})`), and builds the story string
from those texts; the sysprompt template's text is filled the same way (`baseChatReplace(
power_user.sysprompt.content)`), and the card's system prompt gets `{{original}}` there
(`substituteParams(system, {original})`). Only then does the story string's own substitution
run. So a field's `{{trim}}` trims the field, not the story around it; a card-field macro inside
a field (or inside the sysprompt template) reads nothing in the 2.0 engine; `{{original}}`
anywhere but in the card's system prompt is sent as written."""

from __future__ import annotations

from bunzai.render.render import render

STORY = (
    "{{#if system}}{{system}}\n{{/if}}{{#if description}}{{description}}\n{{/if}}"
    "{{#if personality}}{{personality}}\n{{/if}}{{#if scenario}}{{scenario}}\n{{/if}}"
    "{{#if persona}}{{persona}}\n{{/if}}"
)


def _template(family: str, sequences: dict) -> dict:
    return {"family": family, "templates": {"sequences": sequences, "options": {}}}


def _render(card: dict, *, sysprompt: dict | None = None, persona: dict | None = None, chat=None) -> dict:
    """A text-completion render; with no `sysprompt`, an empty one (no system prompt in the story string)."""
    templates = {"sysprompt": ("sys", _template("sysprompt", sysprompt or {"content": ""}))}
    loaded = {
        "preset_id": "ctx",
        "preset": {"name": "Ctx", "body": _template("context", {"story_string": STORY})},
        "character_id": "c",
        "character": {"name": "Sera", "body": card},
        "persona_id": "ada" if persona else None,
        "persona": {"name": "Ada", "body": persona} if persona else None,
        "books": [],
        "regex": [],
        "chat": [{"role": "user", "content": "Hello."}] if chat is None else chat,
        "templates": templates,
    }
    return render(loaded, stage="final")


def test_a_fields_trim_trims_the_field_not_the_story_string() -> None:
    doc = _render({"description": "Heals.{{trim}}", "personality": "Kind."})
    assert doc["prompt"].startswith("Heals.\nKind.\n")


def test_a_card_field_macro_inside_a_field_reads_nothing() -> None:
    doc = _render({"description": "A {{scenario}} healer.", "scenario": "At dusk."})
    assert doc["prompt"].startswith("A  healer.\nAt dusk.\n")


def test_the_persona_is_filled_on_its_own_too() -> None:
    doc = _render({"description": "D."}, persona={"description": "  Ada, who knows {{description}}.  "})
    assert doc["prompt"].startswith("D.\nAda, who knows .\n")


def test_the_sysprompt_template_is_filled_without_card_fields() -> None:
    doc = _render({"description": "D."}, sysprompt={"content": "Be {{char}}. {{description}}"})
    assert doc["prompt"].startswith("Be Sera. \nD.\n")


def test_original_outside_the_cards_system_prompt_is_sent_as_written() -> None:
    card = {"system_prompt": "{{original}} Terse.", "description": "D {{original}}"}
    doc = _render(card, sysprompt={"content": "SYS {{char}}."})
    assert doc["prompt"].startswith("SYS Sera. Terse.\nD {{original}}\n")
    assert [(p["token"], p["where"], p["offset"]) for p in doc["unresolved"]] == [
        ("{{original}}", "character:/body/description", 2)
    ]


def test_a_typo_in_a_field_is_reported_once_where_it_was_written() -> None:
    doc = _render({"description": "\n  Hello {{usr}}."})
    assert doc["prompt"].startswith("Hello {{usr}}.\n")
    assert [(p["token"], p["where"], p["line"], p["column"]) for p in doc["unresolved"]] == [
        ("{{usr}}", "character:/body/description", 2, 9)
    ]


def test_a_variable_a_field_sets_is_read_later_once() -> None:
    card = {"description": "{{setvar::mood::calm}}D{{incvar::n}}", "scenario": "Mood: {{getvar::mood}}"}
    doc = _render(card, chat=[{"role": "user", "content": "{{getvar::n}}"}])
    assert doc["prompt"].startswith("D1\nMood: calm\n")
    assert "User: 1" in doc["prompt"]


def test_the_cards_post_history_instructions_are_filled_on_their_own() -> None:
    # Generate: `substituteParams(jailbreak, {original: power_user.sysprompt.post_history})`, and
    # the 2.0 engine does not evaluate what a macro gives: the template's text comes as written
    # (pushed into the chat, which nothing substitutes again)
    card = {"description": "D.", "post_history_instructions": "{{original}} And {{description}}!{{trim}}"}
    doc = _render(card, sysprompt={"content": "S.", "post_history": "Stay {{char}}."})
    assert doc["prompt"].endswith("Stay {{char}}. And !\nSera:")


def test_the_sysprompt_post_history_is_filled_without_card_fields() -> None:
    doc = _render({"description": "D."}, sysprompt={"content": "S.", "post_history": "Stay {{char}}. {{description}}"})
    assert doc["prompt"].endswith("Stay Sera. \nSera:")


def test_a_persona_placed_in_the_chat_runs_its_variables_when_filled_and_again_there() -> None:
    # Generate's getCharacterCardFields fills the persona first (n is 1), and the in-chat
    # injection is power_user.persona_description as written, substituted where it is placed
    # (doChatInject -> getExtensionPrompt -> substituteParams): n is 2 there
    persona = {"description": "P{{incvar::n}}", "position": "at_depth", "depth": 0, "role": "system"}
    doc = _render({"description": "D."}, persona=persona)
    assert "P2" in doc["prompt"] and "P1" not in doc["prompt"]
