"""A preset Marinara keeps nothing of is refused, as SillyTavern's preset formats refuse one.

A Marinara preset holds a description, generation parameters, sections, groups and choice
blocks (Marinara's marinara.importer.ts importPreset; db/schema/prompts.ts), and no
instruct, context, system-prompt or reasoning template. A SillyTavern template written as
`marinara.preset` used to be a preset holding its name alone, reported only as
`marinara.preset.family.changed` and `marinara.preset.templates.dropped`. Now the crossing is
refused (`unsupported`), naming the formats that keep the piece's family, over an escrowed
Marinara file too; a crossing that keeps real fields is written as before.
"""

from __future__ import annotations

import json

import pytest

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from bunzai.model.preset import Preset, PresetBody
from testkit import corpus_path

TEMPLATES = (
    ("context", "ChatML.json", "sillytavern.context"),
    ("instruct", "ChatML.json", "sillytavern.instruct"),
    ("sysprompt", "Neutral - Chat.json", "sillytavern.sysprompt"),
    ("reasoning", "DeepSeek.json", "sillytavern.reasoning"),
)


def no_media(ref):
    raise AssertionError("a preset has no media")


def read(path):
    return read_bytes(path.read_bytes(), path.name)[1].pieces[0]


def with_body(piece, **changes):
    return piece.model_copy(update={"body": piece.body.model_copy(update=changes)})


@pytest.mark.parametrize("folder, name, carrier", TEMPLATES)
def test_convert_refuses_a_sillytavern_template_as_a_marinara_preset(bunzai, tmp_path, folder, name, carrier):
    out = tmp_path / "out.marinara.json"
    source = corpus_path("sillytavern", "presets", folder, name)
    result = bunzai("convert", str(source), "--to", "marinara.preset", "-o", str(out))
    assert result.code == 1, result.stdout
    error = result.json["error"]
    assert error["code"] == "unsupported" and error["details"]["formats"] == [carrier]
    assert error["message"].startswith("marinara.preset (Marinara Engine preset) keeps nothing of ")
    assert f"{folder} preset: the file would hold none of its settings" in error["message"]
    assert error["hint"].startswith("write a") and carrier in error["hint"]
    assert not out.exists()


def test_a_text_completion_preset_keeps_its_samplers_in_marinara(bunzai, tmp_path):
    out = tmp_path / "out.marinara.json"
    source = corpus_path("sillytavern", "presets", "textgen", "Default.json")
    result = bunzai("convert", str(source), "--to", "marinara.preset", "-o", str(out))
    assert result.code == 0, result.stdout
    parameters = json.loads(json.loads(out.read_text(encoding="utf-8"))["data"]["preset"]["parameters"])
    assert parameters["temperature"] == 0.7 and parameters["topK"] == 40


def test_a_template_with_a_description_keeps_it():
    piece = Preset(id="plain", name="Plain", body=PresetBody(family="instruct", description="For ChatML models"))
    written = json.loads(convert_piece(piece, "marinara.preset", no_media).data)
    assert written["data"]["preset"]["description"] == "For ChatML models"


def test_an_empty_preset_of_marinaras_own_family_is_written():
    written = json.loads(convert_piece(Preset(id="fresh", name="Fresh"), "marinara.preset", no_media).data)
    assert written["data"]["preset"]["name"] == "Fresh" and written["data"]["sections"] == []


def test_over_a_marinara_escrow_a_piece_that_keeps_nothing_is_refused_too():
    # The escrowed file's sections and parameters are not the piece's: a piece made an instruct
    # template, its sections, samplers and groups gone, would be the old file under its name.
    piece = read(corpus_path("marinara-engine", "default-preset.marinara.json"))
    emptied = with_body(piece, family="instruct", prompts=[], orders=[], groups=[], samplers=PresetBody().samplers)
    emptied = with_body(emptied, description="", utility_prompts={})
    with pytest.raises(BunzaiError) as refused:
        convert_piece(emptied, "marinara.preset", no_media)
    assert refused.value.code == "unsupported" and refused.value.details["formats"] == ["sillytavern.instruct"]


def test_over_a_marinara_escrow_a_piece_of_another_family_with_sections_is_written():
    piece = read(corpus_path("marinara-engine", "default-preset.marinara.json"))
    written = json.loads(convert_piece(with_body(piece, family="instruct"), "marinara.preset", no_media).data)
    assert len(written["data"]["sections"]) == len(piece.body.prompts)
