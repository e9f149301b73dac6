"""`{{exampleSeparator}}` (`{{chatSeparator}}`) and `{{chatStart}}` read SillyTavern's context
template whatever the API (macros/definitions/instruct-macros.js: `power_user.context.example_separator`,
`power_user.context.chat_start`; the legacy engine's getInstructMacros reads the same), never a
chat-completion preset's `new_example_chat_prompt` / `new_chat_prompt`. With no `--context` the
render takes SillyTavern's default context template: power-user.js defaultExampleSeparator and
defaultChatStart, both `***`, as a new user's settings (default/content/settings.json) and the
shipped Default context template hold them."""

from __future__ import annotations

from test_chat_completion import block, final, order

from bunzai.render.render import render
from test_chat_completion import loaded

PRESET = {
    "prompts": [
        block("main", "[{{exampleSeparator}}|{{chatSeparator}}|{{chatStart}}]"),
        block("chatHistory", marker=True),
    ],
    "orders": [order("main", "chatHistory")],
    "utility_prompts": {"new_example_chat": "[Example Chat]", "new_chat": "[Start a new Chat]"},
}


def test_without_a_context_template_the_macros_read_sillytaverns_default_one() -> None:
    assert final(PRESET)[0]["content"] == "[***|***|***]"


def test_the_presets_own_helper_prompts_are_still_sent_where_they_belong() -> None:
    messages = final(PRESET)
    assert messages[1]["content"] == "[Start a new Chat]"  # new_chat_prompt opens the chat history


def test_a_given_context_template_is_read_instead() -> None:
    context = {"family": "context", "templates": {"sequences": {"example_separator": "<ex>", "chat_start": ""}}}
    doc = render(dict(loaded(PRESET), templates={"context": ("ctx", context)}), stage="final")
    assert doc["messages"][0]["content"] == "[<ex>|<ex>|]"
