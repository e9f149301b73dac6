"""The nothing-kept refusal names every format a preset's family is written as, RisuAI's and Marinara's too.

`preset_family.carriers` lists the adapters that declare a preset `family`. Only SillyTavern's did,
so a chat-completion preset refused as a template was sent to `sillytavern.preset.chat` alone, though
a RisuAI preset and a Marinara preset both read as chat-completion presets (risu preset_body,
marinara preset_rows.body_of) and keep its prompts and samplers. Each format named writes the piece.
"""

from __future__ import annotations

from bunzai.adapters.common.preset_family import carriers
from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece
from testkit import corpus_path

CHAT_CARRIERS = ["marinara.preset", "risu.preset", "sillytavern.preset.chat"]


def no_media(ref):
    raise AssertionError("a preset has no media")


def test_the_chat_completion_formats_are_sillytaverns_risuais_and_marinaras():
    assert carriers("chat_completion") == CHAT_CARRIERS
    assert carriers("instruct") == ["sillytavern.instruct"]


def test_convert_names_risuai_and_marinara_for_a_refused_chat_preset(bunzai, tmp_path):
    source = corpus_path("sillytavern", "presets", "openai", "Default.json")
    result = bunzai("convert", str(source), "--to", "sillytavern.context", "-o", str(tmp_path / "context.json"))
    assert result.code == 1 and result.json["error"]["code"] == "unsupported"
    assert result.json["error"]["details"]["formats"] == CHAT_CARRIERS
    assert result.json["error"]["hint"] == (
        "write a chat completion preset as marinara.preset or risu.preset or sillytavern.preset.chat; "
        "bunzai.native keeps every field"
    )


def test_every_format_named_writes_the_chat_preset_and_reads_it_back_as_one(table):
    path = corpus_path("sillytavern", "presets", "openai", "Default.json")
    piece = read_bytes(path.read_bytes(), path.name)[1].pieces[0]
    for format_id in CHAT_CARRIERS:
        written = convert_piece(piece, format_id, no_media).data
        found, decoded = read_bytes(written, "default" + get_adapter(format_id).extensions[0])
        back = decoded.pieces[0]
        assert found.format_id == format_id
        assert back.body.family == "chat_completion", format_id
        assert [block.content for block in back.body.prompts if block.content][:1] == [
            "Write {{char}}'s next reply in a fictional chat between {{char}} and {{user}}."
        ], format_id
