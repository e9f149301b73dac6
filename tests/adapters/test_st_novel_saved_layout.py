"""A NovelAI preset SillyTavern saved itself says `genamt` (reply) and `max_length` (context).

SillyTavern's PresetManager.getPresetSettings adds `genamt = amount_gen` and
`max_length = max_context` to every text-completion preset it saves, and loadNovelPreset
reads such a file through setGenerationParamsFromPreset; only a file without `genamt`
(the shipped presets) says `max_length` for the reply and `max_context` for the context.
"""

from __future__ import annotations

import json

from bunzai.adapters.inspect import inspect_bytes
from bunzai.convert import convert_piece

# What SillyTavern writes for a NovelAI preset after "Update current preset" (nai_settings
# minus the filtered keys, plus genamt and max_length).
SAVED = {
    "temperature": 1.25,
    "repetition_penalty": 1.6,
    "repetition_penalty_range": 2048,
    "repetition_penalty_slope": 0.09,
    "repetition_penalty_frequency": 0,
    "repetition_penalty_presence": 0.005,
    "tail_free_sampling": 0.975,
    "top_k": 10,
    "top_p": 0.75,
    "top_a": 0.08,
    "typical_p": 0.975,
    "min_p": 0,
    "math1_temp": 1,
    "math1_quad": 0,
    "math1_quad_entropy_scale": 0,
    "min_length": 1,
    "preamble": "[ Style: chat, complex, sensory, visceral ]",
    "prefix": "vanilla",
    "banned_tokens": "",
    "order": [1, 5, 0, 2, 3, 4],
    "logit_bias": [],
    "extensions": {},
    "genamt": 220,
    "max_length": 8192,
}
SHIPPED = {"temperature": 1, "max_length": 150, "max_context": 7800, "tail_free_sampling": 0.9, "top_k": 25}


def no_media(ref):
    raise AssertionError("a preset has no media")


def read(document: dict):
    data = json.dumps(document, indent=4).encode()
    found = inspect_bytes(data, "Saved.json")
    assert found.adapter.format_id == "sillytavern.preset.novel"
    return found.adapter.read(data, "Saved.json", found.parsed).pieces[0]


def test_a_saved_novel_preset_reads_genamt_as_the_reply_and_max_length_as_the_context():
    samplers = read(SAVED).body.samplers
    assert (samplers.max_tokens, samplers.max_context) == (220, 8192)
    assert "genamt" not in samplers.extra and "max_length" not in samplers.extra


def test_a_shipped_novel_preset_still_reads_max_length_as_the_reply():
    samplers = read(SHIPPED).body.samplers
    assert (samplers.max_tokens, samplers.max_context) == (150, 7800)


def test_an_edited_saved_novel_preset_writes_the_reply_back_to_genamt():
    piece = read(SAVED)
    piece.body.samplers.max_tokens = 300
    crossing = convert_piece(piece, "sillytavern.preset.novel", no_media)
    written = json.loads(crossing.data)
    assert written == {**SAVED, "genamt": 300}
    assert {loss.code for loss in crossing.losses} <= {"preset.name.file_stem"}  # no source file here


def test_a_saved_novel_preset_crosses_to_textgen_with_its_reply_and_context():
    crossing = convert_piece(read(SAVED), "sillytavern.preset.textgen", no_media)
    written = json.loads(crossing.data)
    assert (written["genamt"], written["max_length"]) == (220, 8192)


def test_a_piece_imported_before_this_layout_was_known_goes_back_as_it_came_and_says_so():
    piece = read(SAVED)
    samplers = piece.body.samplers  # as the older reading left it: max_length as the reply, genamt extra
    samplers.max_tokens, samplers.max_context = 8192, None
    samplers.extra = {**samplers.extra, "genamt": 220}
    crossing = convert_piece(piece, "sillytavern.preset.novel", no_media)
    assert json.loads(crossing.data) == SAVED
    assert {loss.code for loss in crossing.losses} - {"preset.name.file_stem"} == {"preset.novel.saved_layout"}
