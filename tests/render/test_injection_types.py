"""An in-chat prompt is injected where SillyTavern's `===` finds it: openai.js
populationInjectionPrompts takes, at each depth i, the prompts whose `injection_depth === i`, so a
depth written as text ("4"), or none at all, matches no depth and the prompt is never sent (nor
is it sent in place: populateChatCompletion skips every absolute prompt there). The canonical
depth is a number (the text reads as 4), and the file bunzai writes keeps the text while the
block still reads so; render reads the depth that file holds and says the prompt is not sent."""

from __future__ import annotations

import json

import pytest
from test_chat_completion import loaded

from bunzai.adapters.registry import get_adapter
from bunzai.render.render import render

ORDER = [{"character_id": 100001, "order": [{"identifier": i, "enabled": True} for i in ("main", "chatHistory", "x")]}]


def _stored(**native) -> dict:
    """The stored preset (body and escrow) an import of a file with an in-chat prompt `x` gives."""
    document = {
        "temperature": 1,
        "openai_max_context": 100,
        "prompts": [
            {"identifier": "main", "role": "system", "content": "Main.", "system_prompt": True},
            {"identifier": "chatHistory", "marker": True, "system_prompt": True},
            {"identifier": "x", "role": "system", "content": "INJECTED", "injection_position": 1, **native},
        ],
        "prompt_order": ORDER,
    }
    data = json.dumps(document).encode()
    piece = get_adapter("sillytavern.preset.chat").read(data, "P.json", json.loads(data)).pieces[0]
    return piece.model_dump(mode="json")


def _render(stored: dict) -> dict:
    return render(dict(loaded(stored["body"]), preset=stored), stage="final")


@pytest.mark.parametrize("depth", [{"injection_depth": "4"}, {"injection_depth": "0"}, {}, {"injection_depth": None}])
def test_a_depth_sillytavern_compares_to_no_number_is_never_sent(depth) -> None:
    doc = _render(_stored(**depth))
    assert "INJECTED" not in [m["content"] for m in doc["messages"]]
    assert any("preset:p#x" in note and "not sent" in note for note in doc["notes"])


@pytest.mark.parametrize("depth", [0, 0.0])
def test_a_depth_written_as_a_number_is_sent(depth) -> None:
    doc = _render(_stored(injection_depth=depth))
    assert [m["content"] for m in doc["messages"]][-1] == "INJECTED"
    assert not any("not sent" in note for note in doc["notes"])


def test_a_block_edited_in_the_studio_is_sent_as_the_file_bunzai_writes_it() -> None:
    # the depth edited to 0 no longer reads as the file's "4": the export writes the number
    stored = _stored(injection_depth="4")
    stored["body"]["prompts"][2]["depth"] = 0
    assert [m["content"] for m in _render(stored)["messages"]][-1] == "INJECTED"


def test_a_preset_from_another_format_is_written_anew() -> None:
    stored = _stored(injection_depth="0")
    stored["original"] = None  # no SillyTavern file behind it: the export writes the number
    assert [m["content"] for m in _render(stored)["messages"]][-1] == "INJECTED"


@pytest.mark.parametrize("role", [{"role": 0}, {"role": 1}, {"role": None}, {}])
def test_a_role_sillytavern_compares_to_no_role_name_is_never_sent(role) -> None:
    # populationInjectionPrompts groups a depth's prompts by `prompt.role === role` for the three
    # names: a role written as a number (which bunzai reads as its name) or none matches none of them
    stored = _stored(injection_depth=0, **role)
    if not role:  # a prompt with no role at all (it reads as system)
        stored = _stored(injection_depth=0)
        del stored["original"]["document"]["prompts"][2]["role"]
    doc = _render(stored)
    assert "INJECTED" not in [m["content"] for m in doc["messages"]]
    assert any("preset:p#x" in note and "role" in note and "not sent" in note for note in doc["notes"])


def test_a_role_edited_in_the_studio_is_sent_as_the_file_bunzai_writes_it() -> None:
    stored = _stored(injection_depth=0, role=1)  # reads as user
    stored["body"]["prompts"][2]["role"] = "assistant"  # no longer reads as the file's 1: the name is written
    assert [m["content"] for m in _render(stored)["messages"]][-1] == "INJECTED"


def test_a_block_made_in_chat_is_rendered_as_the_export_writes_it() -> None:
    # a relative prompt with its depth as text and its role as a number, made in-chat: the export
    # writes a whole number and a name (presets_chat_prompts._encoded), so SillyTavern sends it
    stored = _stored(injection_position=0, injection_depth="0", role=1)
    stored["body"]["prompts"][2]["position"] = "absolute"
    doc = _render(stored)
    assert [m["content"] for m in doc["messages"]][-1] == "INJECTED"
    assert not any("not sent" in note for note in doc["notes"])
