"""`{{original}}` as SillyTavern gives it: the text a character's override replaces, in that
override only, and once per substitution.

Both of SillyTavern's engines build `original` only when the caller passes one (script.js
substituteParamsLegacy: `if (typeof _original === 'string') environment.original = ...`;
macros/engine/MacroEnvBuilder.js: `if (typeof ctx.original === 'string') env.functions.original
= ...`), and only two callers do: the card's system prompt and post-history instructions
standing in for the preset's (PromptManager.preparePrompt from openai.js, Generate's
`substituteParams(system, {original})` in text completion). Anywhere else the legacy engine has
no `original` to replace and the 2.0 engine's handler throws, which MacroEngine turns into the
macro as written: `{{original}}` is sent as written, and the render reports it. Inside an
override the first `{{original}}` gets the text and a second one '' (the one-shot closure).
"""

from __future__ import annotations

from test_chat_completion import CARD, block, final, loaded, order

from bunzai.render.macro_eval import MacroContext, MacroEvaluator
from bunzai.render.render import render

PRESET = {
    "prompts": [block("main", "Write {{char}}'s next reply."), block("chatHistory", marker=True)],
    "orders": [order("main", "chatHistory")],
}


def _evaluate(text: str, **context) -> tuple[str, list[dict]]:
    out = MacroEvaluator(MacroContext(user="Ann", char="Sera", **context)).evaluate(text, "test")
    return out.text, out.problems


def test_original_with_no_override_is_left_as_written_and_reported() -> None:
    text, problems = _evaluate("a {{original}} b")
    assert text == "a {{original}} b"
    assert [(p["kind"], p["token"], p["offset"]) for p in problems] == [("unresolved", "{{original}}", 2)]
    assert "override" in problems[0]["message"]


def test_original_in_an_override_is_given_once() -> None:
    text, problems = _evaluate("{{original}}|{{ original }}|{{ORIGINAL}}", original="Main.")
    assert (text, problems) == ("Main.||", [])


def test_an_empty_original_is_still_an_original() -> None:
    # typeof '' === 'string': the override of an empty main prompt gets '' for it
    assert _evaluate("[{{original}}]", original="") == ("[]", [])


def test_original_only_counts_inside_the_override_spans() -> None:
    text, problems = _evaluate(
        "{{original}} [{{original}}{{original}}] [{{original}}]", original="M", original_spans=[(13, 40), (41, 55)]
    )
    assert text == "{{original}} [M] [M]"
    assert [p["offset"] for p in problems] == [0]


def test_original_in_a_preset_block_is_sent_as_written() -> None:
    preset = {
        "prompts": [block("main", "Main."), block("nsfw", "Aux {{original}}."), block("chatHistory", marker=True)],
        "orders": [order("main", "nsfw", "chatHistory")],
    }
    doc = render(loaded(preset), stage="final")
    assert [m["content"] for m in doc["messages"]][:2] == ["Main.", "Aux {{original}}."]
    assert [(p["token"], p["where"]) for p in doc["unresolved"]] == [("{{original}}", "/body/prompts/1/content")]


def test_original_in_the_cards_override_twice_gives_the_main_prompt_once() -> None:
    card = dict(CARD, system_prompt="{{original}} Stay terse. {{original}}")
    doc = render(loaded(PRESET, card=card), stage="final")
    assert doc["messages"][0]["content"] == "Write Sera's next reply. Stay terse. "
    assert doc["unresolved"] == []


def test_original_in_the_main_prompt_itself_stays_as_written_in_the_override() -> None:
    # preparePrompt substitutes main with no original ({{original}} kept), and that text is
    # what the card's {{original}} brings
    preset = dict(PRESET, prompts=[block("main", "M {{original}}."), block("chatHistory", marker=True)])
    card = dict(CARD, system_prompt="{{original}} Stay terse.")
    assert final(preset, card=card)[0]["content"] == "M {{original}}. Stay terse."


def test_original_in_a_card_field_is_sent_as_written() -> None:
    preset = dict(PRESET, prompts=[block("main", "Main."), block("charDescription", marker=True)])
    preset["orders"] = [order("main", "charDescription", "chatHistory")]
    preset["prompts"].append(block("chatHistory", marker=True))
    doc = render(loaded(preset, card=dict(CARD, description="Heals {{original}}.")), stage="final")
    assert doc["messages"][1]["content"] == "Heals {{original}}."
