"""A text-completion render given no sysprompt template sends SillyTavern's default system prompt:
power_user.sysprompt in power-user.js, and a new user's default/content/settings.json, is on and
holds "Neutral - Chat" (`Write {{char}}'s next reply in a fictional chat between {{char}} and
{{user}}.`, no post-history instructions). Generate puts it in the story string's {{system}}
(script.js: `power_user.sysprompt.enabled` ... `baseChatReplace(power_user.sysprompt.content)`),
unless the card's own system prompt stands in for it; the render says so in `notes`."""

from __future__ import annotations

from testkit import text_loaded

from bunzai.render.render import render
from bunzai.render.text_completion import DEFAULT_SYSPROMPT_NOTE

STORY = "{{#if system}}{{system}}\n{{/if}}{{#if description}}{{description}}\n{{/if}}"
NEUTRAL = "Write Sera's next reply in a fictional chat between Sera and User."


def _render(card: dict, story: str = STORY, **options) -> dict:
    return render(text_loaded(story, card), stage="final", **options)


def test_with_no_sysprompt_the_default_one_is_sent() -> None:
    doc = _render({"description": "A healer."})
    assert doc["prompt"] == f"{NEUTRAL}\nA healer.\nUser: Hello.\nSera:"
    assert DEFAULT_SYSPROMPT_NOTE in doc["notes"] and "sysprompt" not in doc["templates"]


def test_the_cards_system_prompt_stands_in_for_it_and_its_original_is_the_default() -> None:
    doc = _render({"description": "A healer.", "system_prompt": "{{original}} Stay terse."})
    assert doc["prompt"].startswith(f"{NEUTRAL} Stay terse.\nA healer.\n")


def test_the_cards_post_history_instructions_are_sent_with_it() -> None:
    # the default has no post-history instructions, and is on: the card's are pushed after the chat
    doc = _render({"description": "A healer.", "post_history_instructions": "Be brief."})
    assert doc["prompt"].endswith("User: Hello.\nBe brief.\nSera:")


# --- the system prompt turned off (SillyTavern's "Enable System Prompt" unchecked) ----------------
def _off(card: dict, story: str = STORY) -> dict:
    return _render(card, story, sysprompt_enabled=False)


def test_with_the_system_prompt_off_neither_the_default_nor_the_cards_is_sent() -> None:
    # Generate: `if (power_user.sysprompt.enabled) {...} else { system = '' }`, and the post-history
    # instructions are pushed only `if (main_api !== 'openai' && power_user.sysprompt.enabled)`
    card = {"description": "A healer.", "system_prompt": "Stay terse.", "post_history_instructions": "Be brief."}
    doc = _off(card)
    assert doc["prompt"] == "A healer.\nUser: Hello.\nSera:"
    assert DEFAULT_SYSPROMPT_NOTE not in doc["notes"]
    assert any("system prompt is off" in note for note in doc["notes"])


def test_with_the_system_prompt_off_its_macros_give_nothing_and_the_cards_prompt_macro_stays() -> None:
    # instruct-macros.js: systemPrompt and defaultSystemPrompt give '' when power_user.sysprompt is
    # off; charPrompt is the card's field (getCharacterCardFields), whatever the switch
    doc = _off({"description": "A.", "system_prompt": "Stay terse."}, "[{{systemPrompt}}|{{charPrompt}}]\n")
    assert doc["prompt"].startswith("[|Stay terse.]\n")


def test_a_sysprompt_template_and_the_system_prompt_off_are_refused_together() -> None:
    import pytest

    from bunzai.errors import BunzaiError

    loaded = {
        "preset_id": "sys",
        "preset": {"name": "Sys", "body": {"family": "sysprompt", "templates": {"sequences": {"content": "Hi."}}}},
        "character_id": "c",
        "character": {"name": "Sera", "body": {}},
        "persona_id": None,
        "persona": None,
        "books": [],
        "regex": [],
        "chat": [],
        "templates": {"context": ("ctx", {"family": "context", "templates": {"sequences": {"story_string": STORY}}})},
    }
    with pytest.raises(BunzaiError) as refused:
        render(loaded, sysprompt_enabled=False)
    assert refused.value.code == "usage" and refused.value.hint


# --- {{systemPrompt}} and {{defaultSystemPrompt}} (instruct-macros.js) ---------------------------
NEUTRAL_AS_WRITTEN = "Write {{char}}'s next reply in a fictional chat between {{char}} and {{user}}."


def test_system_prompt_macro_gives_the_template_text_as_written_when_the_card_has_none() -> None:
    # systemPrompt: the card's prompt (charPrompt) when it has one and prefer_character_prompt is on
    # (its default), else power_user.sysprompt.content; the 2.0 engine does not evaluate what a
    # macro gives, so the template's own {{char}} is sent as written
    doc = _render({"description": "A."}, "[{{systemPrompt}}]\n")
    assert doc["prompt"].startswith(f"[{NEUTRAL_AS_WRITTEN}]\n")


def test_system_prompt_macro_gives_the_cards_prompt_first() -> None:
    doc = _render({"description": "A.", "system_prompt": "Stay terse, {{char}}."}, "[{{systemPrompt}}]\n")
    assert doc["prompt"].startswith("[Stay terse, Sera.]\n")


def test_default_system_prompt_macro_gives_the_template_text_whatever_the_card_says() -> None:
    story = "[{{defaultSystemPrompt}}|{{instructSystem}}]\n"
    doc = _render({"description": "A.", "system_prompt": "Stay terse."}, story)
    assert doc["prompt"].startswith(f"[{NEUTRAL_AS_WRITTEN}|{NEUTRAL_AS_WRITTEN}]\n")


def test_the_legacy_engine_fills_the_inserted_template_text_once() -> None:
    # macros.js evaluateMacros: the instruct macros run before the environment ({{char}}, {{user}})
    # and every later macro, which then run over what they inserted; one pass, so a {{systemPrompt}}
    # the template itself holds stays as written
    doc = _render({"description": "A."}, "[{{systemPrompt}}]\n", engine="sillytavern-legacy")
    assert doc["prompt"].startswith(f"[{NEUTRAL}]\n")
    sysprompt = {"family": "sysprompt", "templates": {"sequences": {"content": "Be {{char}}. {{systemPrompt}}"}}}
    loaded = text_loaded("[{{systemPrompt}}]\n", {}, templates={"sysprompt": ("sys", sysprompt)})
    legacy = render(loaded, stage="final", engine="sillytavern-legacy")
    assert legacy["prompt"].startswith("[Be Sera. {{systemPrompt}}]\n")
    modern = render(loaded, stage="final")
    assert modern["prompt"].startswith("[Be {{char}}. {{systemPrompt}}]\n")
