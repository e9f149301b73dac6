"""A preset `risu.preset` keeps nothing of is refused, as SillyTavern's and Marinara's preset formats refuse one.

A RisuAI preset has no place for a reasoning template's prefix, suffix and separator (RisuAI reads
reasoning in fixed <Thoughts> tags), so a SillyTavern reasoning template written as `risu.preset` used
to be a 78-byte botPreset holding its name alone. It is refused (`unsupported`) before the RPack table
is looked for, naming the formats of its family, over an escrowed RisuAI preset too. An instruct,
context or system-prompt template is written as before: RisuAI has places for them (its own SillyTavern
import builds the sequences and story string into the preset's JinjaTemplate, prompt.ts
promptConvertion; a system prompt is a main prompt), which bunzai does not map yet, and the loss says so.
"""

from __future__ import annotations

import pytest
from risu_support import risup_bytes

from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from bunzai.model.preset import Preset, PresetBody
from testkit import corpus_path


def no_media(ref):
    raise AssertionError("a preset has no media")


def read(*parts):
    path = corpus_path("sillytavern", "presets", *parts)
    return read_bytes(path.read_bytes(), path.name)[1].pieces[0]


def test_convert_refuses_a_reasoning_template_as_a_risu_preset_without_a_checkout(bunzai, tmp_path):
    # the refusal comes before the RPack table: configuring a checkout would not make the file useful
    out = tmp_path / "deepseek.risup"
    source = corpus_path("sillytavern", "presets", "reasoning", "DeepSeek.json")
    result = bunzai("convert", str(source), "--to", "risu.preset", "-o", str(out))
    assert result.code == 1, result.stdout
    error = result.json["error"]
    assert error["code"] == "unsupported" and error["details"]["formats"] == ["sillytavern.reasoning"]
    assert error["message"] == (
        "risu.preset (RisuAI preset (.risup / .risupreset)) keeps nothing of a reasoning preset: the file would "
        "hold none of its settings"
    )
    assert error["hint"] == "write a reasoning preset as sillytavern.reasoning; bunzai.native keeps every field"
    assert not out.exists()


def test_with_a_table_a_reasoning_template_is_refused_too(table):
    with pytest.raises(BunzaiError) as refused:
        convert_piece(read("reasoning", "DeepSeek.json"), "risu.preset", no_media)
    assert refused.value.code == "unsupported" and refused.value.details["family"] == "reasoning"


def test_over_a_risu_escrow_a_piece_that_keeps_nothing_is_refused(table):
    # the escrowed botPreset's template and samplers are not the piece's: a stored RisuAI preset made
    # a reasoning template, its blocks and samplers gone, would be the old preset under its name
    data = risup_bytes({"name": "Old", "mainPrompt": "Be {{char}}.", "temperature": 70}, table)
    piece = get_adapter("risu.preset").read(data, "old.risup", None).pieces[0]
    emptied = piece.model_copy(update={"body": PresetBody(family="reasoning")})
    with pytest.raises(BunzaiError) as refused:
        convert_piece(emptied, "risu.preset", no_media)
    assert refused.value.code == "unsupported" and refused.value.details["formats"] == ["sillytavern.reasoning"]


def test_a_reasoning_piece_that_keeps_a_sampler_is_written(table):
    piece = Preset(id="think", name="Think", body=PresetBody(family="reasoning", samplers={"top_k": 40}))
    crossing = convert_piece(piece, "risu.preset", no_media)
    back = get_adapter("risu.preset").read(crossing.data, "think.risup", None).pieces[0]
    assert back.body.samplers.top_k == 40


def test_a_text_completion_preset_keeps_its_samplers(table):
    crossing = convert_piece(read("textgen", "Default.json"), "risu.preset", no_media)
    back = get_adapter("risu.preset").read(crossing.data, "default.risup", None).pieces[0]
    assert back.body.samplers.temperature == pytest.approx(0.7) and back.body.samplers.top_k == 40


@pytest.mark.parametrize(
    "folder, name", [("instruct", "ChatML.json"), ("context", "ChatML.json"), ("sysprompt", "Neutral - Chat.json")]
)
def test_a_template_risuai_has_a_place_for_is_written_and_its_loss_names_the_place(table, folder, name):
    crossing = convert_piece(read(folder, name), "risu.preset", no_media)
    (templates,) = [loss for loss in crossing.losses if loss.pointer == "/body/templates"]
    assert templates.code == "risu.preset.field" and "JinjaTemplate" in templates.why


def test_a_text_completion_preset_with_no_samplers_is_refused(no_table):
    piece = Preset(id="empty", name="Empty", body=PresetBody(family="text_completion", source="textgen"))
    with pytest.raises(BunzaiError) as refused:
        convert_piece(piece, "risu.preset", no_media)
    assert refused.value.code == "unsupported" and "sillytavern.preset.textgen" in refused.value.details["formats"]
