"""SillyTavern's master export (Advanced Formatting -> Master Export) reads as one preset per section.

preset-manager.js performMasterExport writes `{instruct, context, sysprompt, preset, reasoning,
srw}`; performMasterImport saves each section that passes its isPossibly...Data test through
that section's preset manager, the text-completion `preset` through TextGen's.
"""

from __future__ import annotations

import json

import pytest

from bunzai.adapters.inspect import inspect_bytes
from bunzai.adapters.registry import all_adapters
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from testkit import CORPUS

PRESETS = CORPUS / "sillytavern" / "presets"
INSTRUCT = {
    "input_sequence": "<|im_start|>user",
    "output_sequence": "<|im_start|>assistant",
    "wrap": True,
    "names_behavior": "force",
    "name": "ChatML",
}
CONTEXT = {"story_string": "{{#if system}}{{system}}\n{{/if}}", "chat_start": "", "name": "ChatML"}
SYSPROMPT = {"name": "Neutral - Chat", "content": "Write {{char}}'s next reply."}
TEXTGEN = {"temp": 0.7, "top_p": 0.9, "top_k": 40, "rep_pen": 1.1, "dry_base": 1.75, "name": "My Samplers"}
REASONING = {"name": "DeepSeek", "prefix": "<think>\n", "suffix": "\n</think>", "separator": "\n\n"}
MASTER = {
    "instruct": INSTRUCT,
    "context": CONTEXT,
    "sysprompt": SYSPROMPT,
    "preset": TEXTGEN,
    "reasoning": REASONING,
    "srw": {"value": "", "show": False},
}
SECTION_FORMATS = {
    "instruct": "sillytavern.instruct",
    "context": "sillytavern.context",
    "sysprompt": "sillytavern.sysprompt",
    "preset": "sillytavern.preset.textgen",
    "reasoning": "sillytavern.reasoning",
}


def no_media(ref):
    raise AssertionError("a preset has no media")


def read(document: dict, name: str = "Master.json"):
    data = json.dumps(document, indent=4).encode()
    found = inspect_bytes(data, name)
    return found.adapter, found.adapter.read(data, name, found.parsed)


def test_a_master_export_reads_as_one_preset_per_section_in_its_own_format():
    adapter, decoded = read(MASTER)
    assert adapter.format_id == "sillytavern.master"
    assert [piece.original.format for piece in decoded.pieces] == list(SECTION_FORMATS.values())
    assert [piece.body.family for piece in decoded.pieces] == [
        "instruct",
        "context",
        "sysprompt",
        "text_completion",
        "reasoning",
    ]
    assert [piece.name for piece in decoded.pieces] == ["ChatML", "ChatML", "Neutral - Chat", "My Samplers", "DeepSeek"]
    assert len({piece.id for piece in decoded.pieces}) == 5
    assert any("srw" in warning for warning in decoded.warnings)


@pytest.mark.parametrize("index, key", list(enumerate(SECTION_FORMATS)))
def test_each_section_exports_as_the_file_sillytavern_saves_for_it(index, key):
    _, decoded = read(MASTER)
    piece = decoded.pieces[index]
    crossing = convert_piece(piece, SECTION_FORMATS[key], no_media)
    assert json.loads(crossing.data) == MASTER[key]
    assert crossing.losses == []
    assert crossing.file_name == f"{MASTER[key]['name']}.json"


def test_the_text_completion_preset_is_named_by_its_name_key():
    _, decoded = read({"preset": TEXTGEN})
    piece = decoded.pieces[0]
    assert (piece.name, piece.original.source) == ("My Samplers", "My Samplers.json")
    assert piece.body.samplers.extra["dry_base"] == 1.75


def test_only_the_sections_sillytavern_takes_are_read():
    adapter, decoded = read({"instruct": {"name": "Half", "input_sequence": "U:"}, "sysprompt": SYSPROMPT})
    assert adapter.format_id == "sillytavern.master"
    assert [piece.original.format for piece in decoded.pieces] == ["sillytavern.sysprompt"]
    assert any("instruct" in warning for warning in decoded.warnings)


def test_a_master_export_is_claimed_by_no_other_format_and_claims_no_single_template():
    data = json.dumps(MASTER).encode()
    text_readers = [a for a in all_adapters() if a.can_read and a.container == "text"]
    claims = [a.format_id for a in text_readers if a.sniff(data, "Master.json", MASTER) > 0]
    assert claims == ["sillytavern.master"]
    master = next(a for a in all_adapters() if a.format_id == "sillytavern.master")
    for section in (INSTRUCT, CONTEXT, SYSPROMPT, TEXTGEN, REASONING):
        assert master.sniff(json.dumps(section).encode(), "x.json", section) == 0.0


def test_a_master_export_is_not_written():
    _, decoded = read(MASTER)
    with pytest.raises(BunzaiError):
        convert_piece(decoded.pieces[0], "sillytavern.master", no_media)


@pytest.mark.skipif(not PRESETS.is_dir(), reason=f"{PRESETS} is absent (../shared/corpus is not beside this checkout)")
def test_a_master_export_of_the_corpus_templates_gives_them_back():
    sections = {
        "instruct": PRESETS / "instruct" / "ChatML.json",
        "context": PRESETS / "context" / "ChatML.json",
        "sysprompt": PRESETS / "sysprompt" / "Neutral - Chat.json",
        "reasoning": PRESETS / "reasoning" / "DeepSeek.json",
    }
    master = {key: json.loads(path.read_bytes()) for key, path in sections.items()}
    _, decoded = read(master)
    for piece, (key, path) in zip(decoded.pieces, sections.items()):
        crossing = convert_piece(piece, SECTION_FORMATS[key], no_media)
        assert json.loads(crossing.data) == json.loads(path.read_bytes())


def test_import_then_export_into_a_sillytavern_folder_gives_each_section_its_file(bunzai, tmp_path):
    master = tmp_path / "My Setup.json"
    master.write_text(json.dumps(MASTER, indent=4), encoding="utf-8")
    drafts = bunzai("import", str(master), check=True).stdout
    receipts = bunzai("apply", "--yes", input=drafts, check=True).lines
    assert [receipt["status"] for receipt in receipts] == ["applied"] * 5
    into = tmp_path / "st"
    report = bunzai("export", "--into", str(into), "--layout", "sillytavern", check=True).json
    assert report["counts"]["written"] == 5
    folders = {
        "instruct": "instruct",
        "context": "context",
        "sysprompt": "sysprompt",
        "preset": "TextGen Settings",
        "reasoning": "reasoning",
    }
    for key, folder in folders.items():
        written = into / folder / f"{MASTER[key]['name']}.json"
        assert json.loads(written.read_bytes()) == MASTER[key]


def test_a_section_name_with_path_separators_names_a_plain_file():
    _, decoded = read({"sysprompt": {"name": "Mine/Yours\\Theirs", "content": "x"}})
    piece = decoded.pieces[0]
    assert piece.name == "Mine/Yours\\Theirs" and piece.original.source == "MineYoursTheirs.json"
