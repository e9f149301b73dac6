"""Properties of the SillyTavern preset formats: unknown keys survive; crossings declare every loss."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError

PROPERTY = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
# Unknown keys carry a prefix no format uses, so they never collide with a named key.
unknown = st.dictionaries(st.text(min_size=1, max_size=8).map(lambda s: "zz_" + s), json_values, max_size=3)

CHAT_BASE = {
    "chat_completion_source": "openai",
    "openai_model": "gpt-4o",
    "temperature": 0.8,
    "openai_max_context": 8000,
    "openai_max_tokens": 300,
    "top_p": 1,
    "impersonation_prompt": "[Impersonate]",
    "wi_format": "{0}",
    "prompts": [
        {
            "identifier": "main",
            "name": "Main Prompt",
            "system_prompt": True,
            "role": "system",
            "content": "Be {{char}}.",
        },
        {"identifier": "chatHistory", "name": "Chat History", "system_prompt": True, "marker": True},
        {
            "identifier": "x1",
            "name": "Note",
            "role": "user",
            "content": "hi",
            "injection_position": 1,
            "injection_depth": 2,
        },
    ],
    "prompt_order": [
        {
            "character_id": 100000,
            "order": [
                {"identifier": "main", "enabled": True},
                {"identifier": "chatHistory", "enabled": True},
                {"identifier": "x1", "enabled": False},
            ],
        }
    ],
    "extensions": {"regex_scripts": []},
}
TEXT_BASES = {
    "sillytavern.preset.textgen": {"temp": 0.7, "top_k": 40, "top_p": 0.9, "rep_pen": 1.1, "dry_base": 1.75},
    "sillytavern.preset.kobold": {"temp": 0.7, "top_k": 0, "top_p": 0.5, "rep_pen": 1.1, "typical": 1},
    "sillytavern.preset.novel": {"temperature": 1, "max_length": 150, "tail_free_sampling": 0.9},
    "sillytavern.instruct": {"name": "T", "input_sequence": "U:", "output_sequence": "A:", "wrap": True},
    "sillytavern.context": {"name": "T", "story_string": "{{description}}", "chat_start": "***"},
    "sillytavern.sysprompt": {"name": "T", "content": "Be {{char}}."},
    "sillytavern.reasoning": {"name": "T", "prefix": "<think>", "suffix": "</think>", "separator": "\n"},
}


def read(format_id: str, document: dict):
    data = json.dumps(document).encode()
    return get_adapter(format_id).read(data, "Test.json", json.loads(data)).pieces[0]


def write(piece, format_id: str):
    crossing = convert_piece(piece, format_id, lambda ref: b"")
    return json.loads(crossing.data), crossing.losses


@PROPERTY
@given(
    root=unknown,
    prompts=st.lists(unknown, min_size=3, max_size=3),
    order=unknown,
    items=st.lists(unknown, min_size=3, max_size=3),
    extensions=unknown,
    edit=st.booleans(),
)
def test_unknown_keys_at_every_level_of_a_chat_preset_survive(root, prompts, order, items, extensions, edit):
    document = copy.deepcopy(CHAT_BASE)
    document.update(root)
    for prompt, extra in zip(document["prompts"], prompts):
        prompt.update(extra)
    document["prompt_order"][0].update(order)
    for item, extra in zip(document["prompt_order"][0]["order"], items):
        item.update(extra)
    document["extensions"].update(extensions)
    piece = read("sillytavern.preset.chat", document)
    if edit:
        piece.body.samplers.temperature = 0.3
        piece.body.prompts[0].content = "edited"
        piece.body.orders[0].items[2].enabled = True
        document.update({"temperature": 0.3})
        document["prompts"][0]["content"] = "edited"
        document["prompt_order"][0]["order"][2]["enabled"] = True
    assert write(piece, "sillytavern.preset.chat")[0] == document


@pytest.mark.parametrize("format_id", sorted(TEXT_BASES))
def test_unknown_root_keys_of_other_preset_families_survive(format_id):
    @PROPERTY
    @given(root=unknown, extensions=unknown)
    def check(root, extensions):
        document = {**TEXT_BASES[format_id], **root, "extensions": extensions}
        assert write(read(format_id, document), format_id)[0] == document

    check()


FORMATS = ["sillytavern.preset.chat", *sorted(TEXT_BASES)]


@PROPERTY
@given(source=st.sampled_from(FORMATS), target=st.sampled_from(FORMATS), root=unknown)
def test_a_crossing_between_preset_families_declares_every_loss(source, target, root):
    base = CHAT_BASE if source == "sillytavern.preset.chat" else TEXT_BASES[source]
    piece = read(source, {**base, **root})
    try:
        _, losses = write(piece, target)
    except BunzaiError as refused:  # another family keeping none of the piece's fields
        assert refused.code == "unsupported" and piece.body.family != get_adapter(target).family
        assert source in refused.details["formats"]
        return
    assert not [loss for loss in losses if loss.code == "crossing.not_carried"]
