"""A chat-completion preset names only a source SillyTavern's chat completion has.

A TextGen, KoboldAI or NovelAI preset written as `sillytavern.preset.chat` used to get
`chat_completion_source: "textgen"` ("kobold", "novel"), with no loss. SillyTavern's chat
completion has no such source (openai.js `chat_completion_sources`): loading the preset sets
its source select to no option, and its change handler stores "undefined" as the source. So
the writer names a source only when SillyTavern has it (or the escrowed file had it already),
keeps the file's own otherwise, and names the source it did not carry.
"""

from __future__ import annotations

import json

import pytest

from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece
from bunzai.model.preset import Preset, PresetBody
from testkit import corpus_path

TEXT_PRESETS = (
    ("textgen", "Default.json", "textgen"),
    ("kobold", "Godlike.json", "kobold"),
    ("novel", "Erato-Golden Arrow.json", "novel"),
)


def no_media(ref):
    raise AssertionError("a preset has no media")


def read(format_id: str, document: dict, name: str = "Default.json"):
    data = json.dumps(document).encode()
    return get_adapter(format_id).read(data, name, json.loads(data)).pieces[0]


def source_losses(losses) -> list:
    return [loss for loss in losses if loss.pointer == "/body/source"]


@pytest.mark.parametrize("folder, name, source", TEXT_PRESETS)
def test_convert_writes_no_text_completion_source_into_a_chat_preset(bunzai, tmp_path, folder, name, source):
    out = tmp_path / "chat.json"
    result = bunzai(
        "convert",
        str(corpus_path("sillytavern", "presets", folder, name)),
        "--to",
        "sillytavern.preset.chat",
        "-o",
        str(out),
    )
    assert result.code == 0, result.json
    written = json.loads(out.read_text(encoding="utf-8"))
    assert "chat_completion_source" not in written and "temperature" in written
    lost = [loss for loss in result.json["losses"] if loss["pointer"] == "/body/source"]
    assert [loss["code"] for loss in lost] == ["preset.source.unknown"]
    assert f'no source "{source}"' in lost[0]["why"] and "names none" in lost[0]["why"]


def test_an_unknown_source_over_a_chat_escrow_keeps_the_files_own():
    piece = read(
        "sillytavern.preset.chat", {"temperature": 0.7, "chat_completion_source": "openai", "openai_model": "gpt-4o"}
    )
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"source": "kobold"})})
    crossing = convert_piece(piece, "sillytavern.preset.chat", no_media)
    written = json.loads(crossing.data)
    assert written["chat_completion_source"] == "openai" and written["openai_model"] == "gpt-4o"
    assert "kobold_model" not in written
    (lost,) = source_losses(crossing.losses)
    assert lost.code == "preset.source.unknown" and '"kobold"' in lost.why and 'keeps its own, "openai"' in lost.why


def test_a_source_sillytavern_has_is_written_with_its_model():
    piece = Preset(id="fresh", name="Fresh", body=PresetBody(source="makersuite", model="gemini-2.5-pro"))
    crossing = convert_piece(piece, "sillytavern.preset.chat", no_media)
    written = json.loads(crossing.data)
    assert written["chat_completion_source"] == "makersuite" and written["google_model"] == "gemini-2.5-pro"
    assert not source_losses(crossing.losses)


def test_an_unknown_source_is_not_written_nor_its_model():
    piece = Preset(
        id="fresh", name="Fresh", body=PresetBody(source="textgen", model="llama", samplers={"temperature": 1})
    )
    crossing = convert_piece(piece, "sillytavern.preset.chat", no_media)
    written = json.loads(crossing.data)
    assert "chat_completion_source" not in written and "textgen_model" not in written
    codes = {loss.pointer: loss.code for loss in crossing.losses}
    assert codes["/body/source"] == "preset.source.unknown" and codes["/body/model"] == "preset.model.dropped"


def test_the_escrows_own_older_source_goes_back_as_it_was():
    # "windowai" was a chat-completion source of older SillyTavern releases; the file had it.
    document = {"temperature": 0.7, "chat_completion_source": "windowai", "windowai_model": "gpt-4"}
    crossing = convert_piece(read("sillytavern.preset.chat", document), "sillytavern.preset.chat", no_media)
    assert json.loads(crossing.data) == document and not source_losses(crossing.losses)
