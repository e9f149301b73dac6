"""A crossing between SillyTavern preset families that keeps none of the piece's fields is refused.

A chat-completion preset written as a context template used to be `{"name": "Default"}`: every
field reported lost, a file SillyTavern shows as an empty template and bunzai itself read back
only with `--format`. No key of one family means anything to the other (SillyTavern's
`new_chat_prompt` and a context's `chat_start` play alike, but one is read only by chat
completion, the other only by text completion), so the crossing is refused, naming the formats
that carry the piece's family. A crossing that keeps something (a chat preset's samplers in a
TextGen preset) and an empty template of the target's own family are written as before.
"""

from __future__ import annotations

import json

import pytest

from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from bunzai.model.preset import Preset, PresetBody
from testkit import corpus_path

CHAT = {
    "temperature": 0.7,
    "top_p": 0.9,
    "new_chat_prompt": "[Start a new Chat]",
    "new_example_chat_prompt": "[Example Chat]",
    "prompts": [{"identifier": "main", "name": "Main Prompt", "system_prompt": True, "content": "Be {{char}}."}],
}
CONTEXT = {"name": "Plain", "story_string": "{{description}}", "example_separator": "***", "chat_start": "***"}
# the formats a chat-completion preset is written as (preset_family.carriers)
CHAT_CARRIERS = ["marinara.preset", "risu.preset", "sillytavern.preset.chat"]
TEMPLATES = ("sillytavern.context", "sillytavern.instruct", "sillytavern.sysprompt", "sillytavern.reasoning")
SAMPLER_PRESETS = ("sillytavern.preset.chat", "sillytavern.preset.textgen", "sillytavern.preset.kobold")


def no_media(ref):
    raise AssertionError("a preset has no media")


def read(format_id: str, document: dict, name: str = "Default.json"):
    data = json.dumps(document).encode()
    return get_adapter(format_id).read(data, name, json.loads(data)).pieces[0]


@pytest.mark.parametrize("target", TEMPLATES)
def test_a_chat_preset_is_refused_as_a_template(target):
    piece = read("sillytavern.preset.chat", CHAT)
    with pytest.raises(BunzaiError) as refused:
        convert_piece(piece, target, no_media)
    error = refused.value
    assert error.code == "unsupported" and target in error.message and "of a chat completion preset" in error.message
    assert error.hint.startswith("write a chat completion preset as ")
    assert "sillytavern.preset.chat" in error.hint and error.details["formats"] == CHAT_CARRIERS


@pytest.mark.parametrize("target", (*SAMPLER_PRESETS[1:], "sillytavern.instruct", "sillytavern.reasoning"))
def test_a_context_template_is_refused_by_every_other_family(target):
    piece = read("sillytavern.context", CONTEXT, "Plain.json")
    with pytest.raises(BunzaiError) as refused:
        convert_piece(piece, target, no_media)
    assert refused.value.code == "unsupported" and refused.value.details["formats"] == ["sillytavern.context"]
    assert "keeps nothing of a context preset: the file would hold none of its settings" in refused.value.message


def test_a_text_completion_hint_names_each_of_its_formats():
    piece = read("sillytavern.preset.textgen", {"temp": 0.7, "top_p": 0.9})
    with pytest.raises(BunzaiError) as refused:
        convert_piece(piece, "sillytavern.context", no_media)
    formats = refused.value.details["formats"]
    assert set(formats) == {"sillytavern.preset.textgen", "sillytavern.preset.kobold", "sillytavern.preset.novel"}


def test_a_crossing_that_keeps_samplers_is_written():
    crossing = convert_piece(read("sillytavern.preset.chat", CHAT), "sillytavern.preset.textgen", no_media)
    written = json.loads(crossing.data)
    assert written["temp"] == 0.7 and written["top_p"] == 0.9


@pytest.mark.parametrize("family, target", [("instruct", "sillytavern.instruct"), ("context", "sillytavern.context")])
def test_an_empty_template_of_the_targets_own_family_is_written(family, target):
    piece = Preset(id="fresh", name="Fresh", body=PresetBody(family=family))
    assert json.loads(convert_piece(piece, target, no_media).data) == {"name": "Fresh"}


def test_convert_refuses_the_corpus_chat_preset_and_writes_nothing(bunzai, tmp_path):
    source = corpus_path("sillytavern", "presets", "openai", "Default.json")
    out = tmp_path / "context.json"
    result = bunzai("convert", str(source), "--to", "sillytavern.context", "-o", str(out))
    assert result.code == 1 and result.json["error"]["code"] == "unsupported"
    assert "sillytavern.preset.chat" in result.json["error"]["hint"]
    assert not out.exists()


def test_the_refusal_gives_an_instruct_template_its_article():
    piece = read("sillytavern.instruct", {"name": "Plain", "input_sequence": "### Input:"}, "Plain.json")
    with pytest.raises(BunzaiError) as refused:
        convert_piece(piece, "sillytavern.context", no_media)
    assert "keeps nothing of an instruct preset" in refused.value.message
    assert refused.value.hint.startswith("write an instruct preset as sillytavern.instruct")


def test_over_an_escrow_of_the_target_a_piece_that_keeps_nothing_is_refused_too():
    # A context template made a chat-completion preset, its strings gone: over its escrow the
    # file used to be the escrowed template's name (and unknown keys) alone, none of the piece's.
    piece = read("sillytavern.context", {**CONTEXT, "custom_key": 1}, "Plain.json")
    emptied = piece.model_copy(update={"body": PresetBody(family="chat_completion")})
    with pytest.raises(BunzaiError) as refused:
        convert_piece(emptied, "sillytavern.context", no_media)
    assert refused.value.code == "unsupported" and refused.value.details["formats"] == CHAT_CARRIERS


def test_over_an_escrow_of_the_target_a_piece_of_another_family_that_keeps_a_field_is_written():
    piece = read("sillytavern.context", CONTEXT, "Plain.json")
    renamed = piece.model_copy(update={"body": piece.body.model_copy(update={"family": "instruct"})})
    assert json.loads(convert_piece(renamed, "sillytavern.context", no_media).data)["story_string"] == "{{description}}"


def test_transfer_refuses_a_stored_template_made_an_empty_chat_preset(bunzai):
    source = corpus_path("sillytavern", "presets", "context", "ChatML.json")
    bunzai("apply", "--yes", input=bunzai("import", str(source)).stdout, check=True)
    stored = bunzai("read", "preset/chatml-context", check=True).json["piece"]
    sequences = {key: None for key in stored["body"]["templates"]["sequences"]}
    options = {key: None for key in stored["body"]["templates"]["options"]}
    change = {"family": "chat_completion", "templates": {"sequences": sequences, "options": options}}
    draft = bunzai("cap", "run", "preset.settings.update", "chatml-context", "--input", json.dumps(change), check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    result = bunzai("transfer", "chatml-context", "--to", "sillytavern.context")
    assert result.code == 1 and result.json["error"]["code"] == "unsupported", result.stdout
    assert result.json["error"]["details"]["formats"] == CHAT_CARRIERS
