"""In-chat injections deeper than SillyTavern's MAX_INJECTION_DEPTH (10,000, script.js): its
injection loops (openai.js populationInjectionPrompts, script.js doChatInject) run depth 0 to
that bound, so a block placed deeper is never sent; the render says so in its notes and does
not walk a loop as deep as a hostile depth. Also the world-info wrapper: formatWorldInfo sends the
entries as they are when `wi_format` is only whitespace."""

from __future__ import annotations

from test_chat_completion import block, in_chat, loaded, order

from bunzai import limits
from bunzai.render.render import render

DEEPEST = limits.RENDER_MAX_INJECTION_DEPTH


def test_a_block_deeper_than_sillytaverns_injection_bound_is_not_sent() -> None:
    preset = {
        "prompts": [
            block("main", "Main."),
            block("chatHistory", marker=True),
            in_chat("edge", "EDGE", depth=DEEPEST),  # the deepest SillyTavern still injects: above the chat
            in_chat("far", "FAR", depth=10**12),
        ],
        "orders": [order("main", "chatHistory", "edge", "far")],
    }
    doc = render(loaded(preset), stage="final")
    assert [m["content"] for m in doc["messages"]] == ["Main.", "[Start a new Chat]", "EDGE", "hello", "hi there"]
    assert any("preset:p#far" in note and "not sent" in note for note in doc["notes"])


def test_a_world_info_format_of_only_whitespace_sends_the_entries_as_they_are() -> None:
    # openai.js formatWorldInfo: `if (!format.trim()) return value`
    preset = {
        "prompts": [block("worldInfoBefore", marker=True), block("chatHistory", marker=True)],
        "orders": [order("worldInfoBefore", "chatHistory")],
        "utility_prompts": {"wi_format": "  \n"},
    }
    lore = {"uid": 0, "keys": [{"text": "hello"}], "content": "The glade is old.", "position": "before_char"}
    doc = render(dict(loaded(preset), books=[{"id": "b", "body": {"settings": {}, "entries": [lore]}}]), stage="final")
    assert doc["messages"][0]["content"] == "The glade is old."
