"""An instruct template without a key SillyTavern does not default keeps the previous template's value.

instruct-mode.js: selecting a template runs migrateInstructModeSettings (which defaults some
keys) and then sets only the controls the template has (`preset[control.property] !==
undefined`); wrap, macro, input/output sequences and suffix, stop sequence, first/last output
sequences and the activation regex of the template selected before stay.
"""

from __future__ import annotations

import json

import pytest

from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece
from bunzai.model.preset import Preset, PresetBody, Templates

CHATML = {
    "input_sequence": "<|im_start|>user",
    "output_sequence": "<|im_start|>assistant",
    "first_output_sequence": "",
    "last_output_sequence": "",
    "stop_sequence": "<|im_end|>",
    "wrap": True,
    "macro": True,
    "activation_regex": "",
    "output_suffix": "<|im_end|>\n",
    "input_suffix": "<|im_end|>\n",
    "names_behavior": "force",
    "name": "ChatML",
}
KEPT = {
    "input_sequence",
    "output_sequence",
    "output_suffix",
    "stop_sequence",
    "first_output_sequence",
    "last_output_sequence",
    "activation_regex",
    "wrap",
    "macro",
}


def no_media(ref):
    raise AssertionError("a preset has no media")


def read(document: dict):
    data = json.dumps(document, indent=4).encode()
    return get_adapter("sillytavern.instruct").read(data, "ChatML.json", json.loads(data)).pieces[0]


def kept_losses(piece) -> dict[str, str]:
    crossing = convert_piece(piece, "sillytavern.instruct", no_media)
    return {loss.pointer: loss.why for loss in crossing.losses if loss.code == "preset.template.kept_from_previous"}


def test_an_unedited_template_names_nothing():
    assert kept_losses(read(CHATML)) == {}
    assert kept_losses(read({k: v for k, v in CHATML.items() if k != "activation_regex"})) == {}


@pytest.mark.parametrize("part, key", [("sequences", "stop_sequence"), ("options", "wrap")])
def test_a_key_removed_from_the_template_is_named(part, key):
    piece = read(CHATML)
    getattr(piece.body.templates, part).pop(key)
    losses = kept_losses(piece)
    assert list(losses) == [f"/body/templates/{part}/{key}"]
    assert "selected before" in losses[f"/body/templates/{part}/{key}"]


def test_a_removed_key_sillytavern_defaults_is_not_named():
    piece = read(CHATML)
    piece.body.templates.sequences.pop("input_suffix")
    assert kept_losses(piece) == {}


def test_a_new_template_names_every_key_it_leaves_out():
    templates = Templates(sequences={"input_sequence": "### Instruction:", "output_sequence": "### Response:"})
    piece = Preset(id="alpaca-instruct", name="Alpaca", body=PresetBody(family="instruct", templates=templates))
    losses = kept_losses(piece)
    assert {pointer.rsplit("/", 1)[1] for pointer in losses} == KEPT - {"input_sequence", "output_sequence"}
