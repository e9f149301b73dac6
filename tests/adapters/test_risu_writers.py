"""Writing RisuAI modules (.risum) and presets (.risup): round trips through our readers, RisuAI's layout."""

from __future__ import annotations

import gzip
import json
import struct

import pytest
from cards_support import read
from risu_support import fake_checkout, module_bytes, risup_bytes
from test_risu_binary import MODULE, PRESET

from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.risu import aesgcm, rpack
from bunzai.adapters.risu.msgpack_read import unpack
from bunzai.adapters.risu.msgpack_write import pack
from bunzai.adapters.risu.preset import IV, KEY
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from bunzai.model import dump_piece


def risu_read_module(data: bytes, table: rpack.Table) -> tuple[dict, list[bytes]]:
    """RisuAI's readModule, step by step: magic, version, the main block, asset blocks into assets[i][1]."""
    assert data[0] == 111 and data[1] == 0
    size = struct.unpack("<I", data[2:6])[0]
    main = json.loads(table.decode(data[6 : 6 + size]))
    assert main["type"] == "risuModule"
    at, blocks = 6 + size, []
    while data[at] != 0:
        assert data[at] == 1
        length = struct.unpack("<I", data[at + 1 : at + 5])[0]
        blocks.append(table.decode(data[at + 5 : at + 5 + length]))
        main["module"]["assets"][len(blocks) - 1][1] = "filled"  # RisuAI indexes assets by block: it must exist
        at += 5 + length
    assert at == len(data) - 1
    return main["module"], blocks


def test_an_unedited_module_writes_back_byte_for_byte(table):
    data = module_bytes(MODULE, table, [b"\x89PNG sky"])
    _adapter, decoded, media = read(data, "weather.risum")
    crossing = convert_piece(decoded.pieces[0], "risu.module", media)
    assert crossing.data == data and crossing.losses == []


def test_an_edited_entry_is_written_and_the_rest_of_the_module_kept(table):
    _adapter, decoded, media = read(module_bytes(MODULE, table, [b"\x89PNG sky"]), "weather.risum")
    book = decoded.pieces[0]
    entry = book.body.entries[0].model_copy(update={"content": "Very wet."})
    book = book.model_copy(update={"body": book.body.model_copy(update={"entries": [entry], "description": "new"})})
    crossing = convert_piece(book, "risu.module", media)
    module, blocks = risu_read_module(crossing.data, table)
    assert module["lorebook"][0]["content"] == "Very wet." and module["description"] == "new"
    assert module["trigger"] == MODULE["trigger"] and module["regex"] == MODULE["regex"]
    assert module["assets"] == [["sky", "filled", "png"]] and blocks == [b"\x89PNG sky"]
    again = read_bytes(crossing.data, "weather.risum")[1].pieces[0]
    assert again.body == book.body
    assert [loss for loss in crossing.losses if loss.code == "crossing.not_carried"] == []


def test_a_lorebook_from_another_format_becomes_a_new_module(table):
    export = {"type": "risu", "ver": 1, "data": MODULE["lorebook"]}
    _adapter, decoded, media = read(json.dumps(export).encode(), "weather.json")
    book = decoded.pieces[0]
    crossing = convert_piece(book, "risu.module", media)
    module, blocks = risu_read_module(crossing.data, table)
    assert module["name"] == book.name and module["assets"] == [] and blocks == []
    again = read_bytes(crossing.data, "weather.risum")[1].pieces[0]
    assert dump_piece(again)["body"] == dump_piece(book)["body"]


def test_a_regex_set_becomes_a_module_of_scripts(table):
    _adapter, decoded, media = read(module_bytes(MODULE, table), "weather.risum")
    rules = decoded.pieces[1]
    crossing = convert_piece(rules, "risu.module", media)
    module, _blocks = risu_read_module(crossing.data, table)
    assert module["regex"] == MODULE["regex"]
    again = read_bytes(crossing.data, "weather.risum")[1].pieces
    assert again[1].body == rules.body and again[0].body.entries == []


def test_without_a_table_writing_is_refused_naming_the_setting(no_table):
    from bunzai.model.lorebook import Lorebook

    with pytest.raises(BunzaiError) as raised:
        convert_piece(Lorebook(id="w", name="W", body={"entries": [{"content": "x"}]}), "risu.module", lambda r: b"")
    assert raised.value.code == "unsupported" and "[engines] risu" in raised.value.hint
    from bunzai.model.preset import Preset

    with pytest.raises(BunzaiError) as raised:
        convert_piece(Preset(id="p", name="P"), "risu.preset", lambda r: b"")
    assert raised.value.code == "unsupported" and "[engines] risu" in raised.value.hint


def test_a_module_never_decoded_goes_back_unchanged_without_a_table(no_table, tmp_path):
    data = module_bytes(MODULE, fake_checkout(tmp_path / "elsewhere"), [b"sky"])
    _adapter, decoded, media = read(data, "weather.risum")
    assert convert_piece(decoded.pieces[0], "risu.module", media).data == data


def test_msgpack_writes_what_the_reader_reads():
    value = {
        "a": [0, 1, -1, -33, 127, 128, 255, 256, 65536, 2**32, -(2**40), 0.5, "x" * 31, "y" * 32, "z" * 70000],
        "b": b"\x00" * 300,
        "c": None,
        "d": True,
        "e": False,
        "f": {str(i): i for i in range(20)},
        "g": list(range(17)),
    }
    assert unpack(pack(value), "test") == value
    # beyond 32 bits msgpackr writes a float64 (its 64-bit integer forms decode as BigInt in RisuAI)
    assert pack(2**40)[0] == 0xCB and pack(-(2**31)) == b"\xd2\x80\x00\x00\x00" and pack(2**32 - 1)[0] == 0xCE


def open_risup(data: bytes, table: rpack.Table) -> tuple[dict, dict]:
    """RisuAI's importPreset: decodeRPack, decompress, msgpack, decrypt, msgpack."""
    outer = unpack(gzip.decompress(table.decode(data)), "outer")
    inner = unpack(aesgcm.decrypt(KEY, IV, outer.pop("preset"), "inner"), "inner")
    return outer, inner


def test_an_unedited_preset_round_trips(table):
    data = risup_bytes(PRESET, table)
    _adapter, decoded, media = read(data, "warm.risup")
    crossing = convert_piece(decoded.pieces[0], "risu.preset", media)
    outer, inner = open_risup(crossing.data, table)
    assert outer == {"presetVersion": 2, "type": "preset"} and inner == PRESET
    assert crossing.losses == [] and crossing.file_name.endswith(".risup")


def test_an_edited_preset_writes_its_edits_into_the_bot_preset(table):
    _adapter, decoded, media = read(risup_bytes(PRESET, table), "warm.risup")
    preset = decoded.pieces[0]
    prompts = [
        block.model_copy(update={"content": "Edited."}) if block.identifier in ("main", "template-0") else block
        for block in preset.body.prompts
    ]
    samplers = preset.body.samplers.model_copy(update={"temperature": 1.1, "max_tokens": 512})
    preset = preset.model_copy(
        update={"body": preset.body.model_copy(update={"prompts": prompts, "samplers": samplers})}
    )
    crossing = convert_piece(preset, "risu.preset", media)
    _outer, inner = open_risup(crossing.data, table)
    assert inner["mainPrompt"] == "Edited." and inner["promptTemplate"][0]["text"] == "Edited."
    assert inner["temperature"] == 110 and inner["maxResponse"] == 512
    assert inner["someOther"] == {"kept": True}
    again = read_bytes(crossing.data, "warm.risup")[1].pieces[0]
    assert again.body == preset.body and crossing.losses == []


def test_a_sillytavern_preset_becomes_template_items_as_risuai_imports_them(table):
    from bunzai.model.preset import Preset

    preset = Preset.model_validate(
        {
            "id": "st",
            "name": "ST",
            "body": {
                "samplers": {"temperature": 0.7, "top_p": 0.95, "seed": 5},
                "prompts": [
                    {"identifier": "main", "name": "Main", "content": "Be {{char}}."},
                    {"identifier": "chatHistory", "name": "Chat History", "marker": True},
                    {"identifier": "dialogueExamples", "name": "Examples", "marker": True},
                    {"identifier": "custom", "name": "Custom", "role": "assistant", "content": "ok"},
                ],
            },
        }
    )
    crossing = convert_piece(preset, "risu.preset", lambda ref: b"")
    _outer, inner = open_risup(crossing.data, table)
    assert inner["promptTemplate"] == [
        {"type": "plain", "type2": "main", "text": "Be {{char}}.", "role": "system", "name": "Main"},
        {"type": "chat", "rangeEnd": "end", "rangeStart": 0},
        {"type": "plain", "type2": "normal", "text": "ok", "role": "bot", "name": "Custom"},
    ]
    assert inner["temperature"] == 70 and inner["top_p"] == 0.95 and inner["name"] == "ST"
    codes = {(loss.pointer, loss.code) for loss in crossing.losses}
    assert ("/body/samplers/seed", "risu.preset.sampler") in codes
    assert ("/body/prompts", "risu.preset.template") in codes
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def test_draft_impact_counts_risu_modules_and_presets_only_with_a_table(table, monkeypatch):
    from bunzai.convert import impact_formats

    assert "risu.module" in impact_formats("lorebook") and "risu.preset" in impact_formats("preset")
    rpack.configure_risu_root(None)
    assert "risu.module" not in impact_formats("regex") and "risu.preset" not in impact_formats("preset")


def test_a_module_imported_without_a_table_is_decoded_when_one_is_configured_later(tmp_path, monkeypatch):
    monkeypatch.delenv(rpack.ENV_ROOT, raising=False)
    rpack.configure_risu_root(None)
    table = fake_checkout(tmp_path)
    _adapter, decoded, media = read(module_bytes(MODULE, table, [b"sky"]), "weather.risum")
    book = decoded.pieces[0]
    assert book.original.document is None
    from bunzai.model.lorebook import LoreEntry

    book = book.model_copy(update={"body": book.body.model_copy(update={"entries": [LoreEntry(content="New.")]})})
    with pytest.raises(BunzaiError):
        convert_piece(book, "risu.module", media)
    rpack.configure_risu_root(tmp_path, verify_hash=False)
    try:
        module, blocks = risu_read_module(convert_piece(book, "risu.module", media).data, table)
    finally:
        rpack.configure_risu_root(None)
    assert [entry["content"] for entry in module["lorebook"]] == ["New."]
    assert module["trigger"] == MODULE["trigger"] and blocks == [b"sky"]
