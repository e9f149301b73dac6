"""A KoboldAI preset's `min_p` is the min_p sampler (kai-settings.js: kai_settings.min_p, a slider
loaded from the preset and sent as `min_p`), so it crosses to and from the other families."""

from __future__ import annotations

import json

from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece

KOBOLD = {
    "temp": 1,
    "rep_pen": 1,
    "rep_pen_range": 0,
    "top_p": 1,
    "min_p": 0.05,
    "top_a": 0,
    "top_k": 0,
    "typical": 1,
    "tfs": 1,
    "rep_pen_slope": 0,
    "sampler_order": [6, 0, 1, 3, 4, 2, 5],
}
TEXTGEN = {"temp": 0.7, "top_p": 0.9, "top_k": 40, "rep_pen": 1.1, "min_p": 0.1}


def no_media(ref):
    raise AssertionError("a preset has no media")


def read(format_id: str, document: dict):
    data = json.dumps(document, indent=4).encode()
    return get_adapter(format_id).read(data, "Preset.json", json.loads(data)).pieces[0]


def cross(piece, format_id: str):
    crossing = convert_piece(piece, format_id, no_media)
    return json.loads(crossing.data), {(loss.code, loss.pointer) for loss in crossing.losses}


def test_a_kobold_min_p_is_the_sampler_and_crosses_to_textgen():
    piece = read("sillytavern.preset.kobold", KOBOLD)
    assert piece.body.samplers.min_p == 0.05 and "min_p" not in piece.body.samplers.extra
    written, losses = cross(piece, "sillytavern.preset.textgen")
    assert written["min_p"] == 0.05
    assert not any("min_p" in pointer for _, pointer in losses)


def test_a_textgen_min_p_crosses_to_kobold():
    written, losses = cross(read("sillytavern.preset.textgen", TEXTGEN), "sillytavern.preset.kobold")
    assert written["min_p"] == 0.1
    assert not any("min_p" in pointer for _, pointer in losses)


def test_a_kobold_piece_holding_min_p_as_extra_goes_back_as_it_came_and_says_so():
    piece = read("sillytavern.preset.kobold", KOBOLD)
    samplers = piece.body.samplers  # as the older reading left it
    samplers.min_p, samplers.extra = None, {**samplers.extra, "min_p": 0.05}
    written, losses = cross(piece, "sillytavern.preset.kobold")
    assert written == KOBOLD
    assert {code for code, _ in losses} - {"preset.name.file_stem"} == {"preset.kobold.min_p_extra"}
