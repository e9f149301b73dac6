"""Depth 0 in Marinara Engine: a lorebook entry at depth 0 is never sent (prompt-injector.ts
getDepthInjectedEntries keeps only depth > 0) and a preset section at depth 0 is sent in its
place in the order (assembler.ts injects only injectionDepth > 0). A block placed at depth 0
elsewhere is written at depth 1 and the move is named; a Marinara file's own rows stay as
they were."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from marinara_support import envelope, lorebook_entry, lorebook_export, no_media, read

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece


def st_world(depth: int) -> bytes:
    entry = {"uid": 0, "key": ["dragon"], "content": "A dragon.", "comment": "Dragon", "position": 4, "depth": depth}
    return json.dumps({"entries": {"0": entry}}).encode()


@given(depth=st.integers(min_value=0, max_value=50))
def test_a_world_entry_at_a_depth_is_written_where_marinara_sends_it(depth):
    _adapter, decoded = read_bytes(st_world(depth), "Beasts.json", "sillytavern.world")
    crossing = convert_piece(decoded.pieces[0], "marinara.lorebook", no_media)
    row = json.loads(crossing.data)["data"]["entries"][0]
    assert row["position"] == 2 and row["depth"] == max(depth, 1)
    moved = [loss.pointer for loss in crossing.losses if loss.code == "marinara.lorebook.entry.depth_zero"]
    assert moved == (["/body/entries/0/depth"] if depth == 0 else [])


def test_a_marinara_entry_already_at_depth_zero_goes_back_as_it_was():
    book = json.loads(lorebook_export())["data"]
    book["entries"][0] |= {"position": 2, "depth": 0}
    raw = envelope("marinara_lorebook", book)
    _adapter, decoded = read(raw)
    crossing = convert_piece(decoded.pieces[0], "marinara.lorebook", no_media)
    assert json.loads(crossing.data) == json.loads(raw) and crossing.losses == []


def test_an_entry_moved_to_depth_zero_in_marinara_is_written_at_depth_one():
    book = json.loads(lorebook_export())["data"]
    book["entries"] = [lorebook_entry(position=0, depth=0)]
    _adapter, decoded = read(envelope("marinara_lorebook", book))
    piece = decoded.pieces[0]
    entry = piece.body.entries[0].model_copy(update={"position": "at_depth"})
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"entries": [entry]})})
    crossing = convert_piece(edited, "marinara.lorebook", no_media)
    row = json.loads(crossing.data)["data"]["entries"][0]
    assert (row["position"], row["depth"]) == (2, 1)
    assert [loss.code for loss in crossing.losses] == ["marinara.lorebook.entry.depth_zero"]


def st_preset(position: int, depth: int) -> bytes:
    prompts = [
        {"identifier": "main", "name": "Main", "role": "system", "content": "Be kind."},
        {"identifier": "chatHistory", "name": "Chat History", "marker": True},
        {
            "identifier": "nudge",
            "name": "Nudge",
            "role": "system",
            "content": "Stay in character.",
            "injection_position": position,
            "injection_depth": depth,
        },
    ]
    order = [{"identifier": p["identifier"], "enabled": True} for p in prompts]
    preset = {"temperature": 1, "prompts": prompts, "prompt_order": [{"character_id": 100001, "order": order}]}
    return json.dumps(preset).encode()


def nudge_row(data: bytes) -> dict:
    return next(row for row in json.loads(data)["data"]["sections"] if row["identifier"] == "nudge")


@given(position=st.sampled_from([0, 1]), depth=st.integers(min_value=0, max_value=50))
def test_a_sillytavern_block_at_a_depth_is_written_where_marinara_injects_it(position, depth):
    _adapter, decoded = read_bytes(st_preset(position, depth), "p.json", "sillytavern.preset.chat")
    crossing = convert_piece(decoded.pieces[0], "marinara.preset", no_media)
    row = nudge_row(crossing.data)
    injected = position == 1
    assert row["injectionPosition"] == ("depth" if injected else "ordered")
    assert row["injectionDepth"] == (max(depth, 1) if injected else depth)
    moved = [loss.pointer for loss in crossing.losses if loss.code == "marinara.preset.block.depth_zero"]
    assert moved == (["/body/prompts/2/depth"] if injected and depth == 0 else [])


def test_a_marinara_section_at_depth_zero_reads_as_sent_in_its_place():
    _adapter, decoded = read_bytes(st_preset(1, 0), "p.json", "sillytavern.preset.chat")
    written = convert_piece(decoded.pieces[0], "marinara.preset", no_media).data
    document = json.loads(written)
    row = next(row for row in document["data"]["sections"] if row["identifier"] == "nudge")
    row["injectionDepth"] = 0  # as Marinara's own SillyTavern importer writes such a block
    raw = json.dumps(document).encode()
    _adapter, back = read(raw)
    piece = back.pieces[0]
    nudge = next(block for block in piece.body.prompts if block.identifier == "nudge")
    assert nudge.position == "relative"  # assembler.ts sends it in the order, not in the chat
    again = convert_piece(piece, "marinara.preset", no_media)
    assert json.loads(again.data) == document and again.losses == []
    to_st = json.loads(convert_piece(piece, "sillytavern.preset.chat", no_media).data)
    assert next(p for p in to_st["prompts"] if p["identifier"] == "nudge")["injection_position"] == 0


def test_a_section_read_as_relative_stays_in_its_place_when_its_depth_is_edited():
    _adapter, decoded = read_bytes(st_preset(1, 0), "p.json", "sillytavern.preset.chat")
    document = json.loads(convert_piece(decoded.pieces[0], "marinara.preset", no_media).data)
    row = next(row for row in document["data"]["sections"] if row["identifier"] == "nudge")
    row["injectionDepth"] = 0
    _adapter, back = read(json.dumps(document).encode())
    piece = back.pieces[0]
    blocks = [b.model_copy(update={"depth": 3}) if b.identifier == "nudge" else b for b in piece.body.prompts]
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"prompts": blocks})})
    crossing = convert_piece(edited, "marinara.preset", no_media)
    assert (nudge_row(crossing.data)["injectionPosition"], nudge_row(crossing.data)["injectionDepth"]) == ("ordered", 3)
    assert crossing.losses == []
