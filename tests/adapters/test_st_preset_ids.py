"""SillyTavern keeps each preset type in its own folder; the ids keep them apart the same way."""

from __future__ import annotations

import pytest

from bunzai.adapters.inspect import read_bytes
from testkit import corpus_path

CASES = [
    ("openai/Default.json", "default"),
    ("textgen/Default.json", "default-textgen"),
    ("context/Default.json", "default-context"),
    ("instruct/ChatML.json", "chatml-instruct"),
    ("context/ChatML.json", "chatml-context"),
    ("kobold/Godlike.json", "godlike-kobold"),
    ("novel/Erato-Golden Arrow.json", "erato-golden-arrow-novel"),
    ("sysprompt/Neutral - Chat.json", "neutral-chat-sysprompt"),
    ("reasoning/DeepSeek.json", "deepseek-reasoning"),
]


@pytest.mark.parametrize(("file", "expected"), CASES)
def test_a_preset_id_is_its_name_slug_with_the_preset_type(file, expected):
    path = corpus_path("sillytavern", "presets", *file.split("/"))
    _, decoded = read_bytes(path.read_bytes(), path.name, None)
    assert decoded.pieces[0].id == expected


def test_the_id_does_not_depend_on_what_else_is_read():
    path = corpus_path("sillytavern", "presets", "instruct", "ChatML.json")
    first = read_bytes(path.read_bytes(), path.name, None)[1].pieces[0].id
    assert read_bytes(path.read_bytes(), "renamed.json", None)[1].pieces[0].id == first
