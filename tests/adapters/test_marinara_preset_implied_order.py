"""A preset with no order written as `marinara.preset` reports no order lost.

Every Marinara preset has a section order (prompts.storage.ts creates each with `sectionOrder: []` and
appends a new section to it; the assembler sends only the sections it lists), so bunzai writes a
piece with no order with its blocks in listed order, each on where it is, and reads any Marinara
preset back with one global order. A text-completion preset (no blocks, no order) was written with
`[]`, read back as an empty global order and reported `marinara.preset.orders.single`, though it had
no order to lose. That order is the one the piece implies, so it is no loss; a piece with orders
still names what the single order drops, and a Marinara preset read with an empty order (already
imported) keeps it, with no loss written back.
"""

from __future__ import annotations

import json

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.model.preset import Preset, PresetBody
from testkit import corpus_path

ORDERS_SINGLE = "marinara.preset.orders.single"


def no_media(ref):
    raise AssertionError("a preset has no media")


def codes(crossing) -> set[str]:
    return {loss.code for loss in crossing.losses}


def section_order(data: bytes) -> list[str]:
    return json.loads(json.loads(data)["data"]["preset"]["sectionOrder"])


def test_convert_writes_a_text_completion_preset_with_no_order_lost(bunzai, tmp_path):
    out = tmp_path / "default.marinara.json"
    source = corpus_path("sillytavern", "presets", "textgen", "Default.json")
    report = bunzai("convert", str(source), "--to", "marinara.preset", "-o", str(out), check=True).json
    assert ORDERS_SINGLE not in {loss["code"] for loss in report["losses"]}
    assert "/body/orders" not in {loss["pointer"] for loss in report["losses"]}
    assert section_order(out.read_bytes()) == []


def test_blocks_with_no_order_are_written_in_order_and_lose_none():
    blocks = [
        {"identifier": "main", "name": "Main", "content": "Be {{char}}."},
        {"identifier": "style", "name": "Style", "content": "Terse.", "enabled": False},
    ]
    piece = Preset(id="plain", name="Plain", body=PresetBody(prompts=blocks))
    crossing = convert_piece(piece, "marinara.preset", no_media)
    assert ORDERS_SINGLE not in codes(crossing)
    written = json.loads(crossing.data)["data"]
    assert section_order(crossing.data) == [row["id"] for row in written["sections"]]
    assert [row["enabled"] for row in written["sections"]] == ["true", "false"]


def test_a_piece_with_a_character_order_still_names_the_order_dropped():
    blocks = [{"identifier": "main", "content": "Be {{char}}."}, {"identifier": "style", "content": "Terse."}]
    orders = [
        {"target": "global", "items": [{"identifier": "main"}, {"identifier": "style"}]},
        {"target": "100000", "items": [{"identifier": "style"}]},
    ]
    piece = Preset(id="two", name="Two", body=PresetBody(prompts=blocks, orders=orders))
    assert ORDERS_SINGLE in codes(convert_piece(piece, "marinara.preset", no_media))


def test_a_marinara_preset_with_an_empty_order_keeps_it_with_no_loss():
    path = corpus_path("marinara-engine", "default-preset.marinara.json")
    document = json.loads(path.read_bytes())
    document["data"]["preset"]["sectionOrder"] = "[]"  # every section hidden: Marinara sends none
    data = json.dumps(document).encode()
    piece = read_bytes(data, "hidden.marinara.json")[1].pieces[0]
    assert [order.model_dump() for order in piece.body.orders] == [{"target": "global", "items": []}]
    over_escrow = convert_piece(piece, "marinara.preset", no_media)
    assert section_order(over_escrow.data) == [] and not over_escrow.losses


def test_a_marinara_preset_without_sections_reads_its_empty_order_back_with_no_loss():
    piece = Preset(id="bare", name="Bare", body=PresetBody(orders=[{"target": "global", "items": []}]))
    crossing = convert_piece(piece, "marinara.preset", no_media)
    back = read_bytes(crossing.data, "bare.marinara.json")[1].pieces[0]
    assert back.body.orders == piece.body.orders and not codes(crossing) & {ORDERS_SINGLE}
