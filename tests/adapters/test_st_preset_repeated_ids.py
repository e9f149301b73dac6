"""A SillyTavern chat preset with repeated prompt identifiers, read and written as SillyTavern
does (PromptManager.getPromptById takes the first prompt with an identifier; openai.js places
a prompt once, at its first order entry): the first prompt is the block, a later one is kept in
the file where it stood, and the render places a repeated order entry once."""

from __future__ import annotations

import copy
import json

import pytest

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.render.chat_completion import Inputs, assemble
from testkit import corpus_path


def no_media(ref):
    raise AssertionError("a preset has no media")


def default_preset() -> dict:
    path = corpus_path("sillytavern", "presets", "openai", "Default.json")
    return json.loads(path.read_bytes())


def with_repeats() -> dict:
    """SillyTavern's own Default preset with a copy of `main` at the end of `prompts` (as an
    import that appended a prompt of the same id leaves it) and `main` twice in the order it uses."""
    document = default_preset()
    shadow = copy.deepcopy(next(p for p in document["prompts"] if p["identifier"] == "main"))
    shadow["content"] = "A shadowed copy SillyTavern never sends."
    document["prompts"].append(shadow)
    order = next(o for o in document["prompt_order"] if o["character_id"] == 100001)["order"]
    order.append({"identifier": "main", "enabled": True})
    return document


def read(document: dict):
    piece = read_bytes(json.dumps(document, indent=4).encode(), "Default.json", "sillytavern.preset.chat")[1].pieces[0]
    piece.original.source = "Default.json"  # as `bunzai import` records it: the export keeps the file's name
    return piece


def test_the_first_prompt_with_an_identifier_is_the_block():
    piece = read(with_repeats())
    mains = [block for block in piece.body.prompts if block.identifier == "main"]
    assert (
        len(mains) == 1
        and mains[0].content == next(p for p in default_preset()["prompts"] if p["identifier"] == "main")["content"]
    )
    active = next(order for order in piece.body.orders if order.target == "global")  # SillyTavern's 100001
    items = [item.identifier for item in active.items if item.identifier == "main"]
    assert len(items) == 2  # the order keeps both entries


def test_a_preset_with_repeated_identifiers_round_trips_json_equal():
    document = with_repeats()
    crossing = convert_piece(read(document), "sillytavern.preset.chat", no_media)
    assert json.loads(crossing.data) == document
    assert crossing.losses == []


def test_an_edit_keeps_the_shadowed_prompt_where_it_stood():
    document = with_repeats()
    piece = read(document)
    blocks = [
        b.model_copy(update={"content": "Edited main."}) if b.identifier == "main" else b for b in piece.body.prompts
    ]
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"prompts": blocks})})
    written = json.loads(convert_piece(edited, "sillytavern.preset.chat", no_media).data)
    contents = [p.get("content") for p in written["prompts"] if p["identifier"] == "main"]
    assert contents == ["Edited main.", "A shadowed copy SillyTavern never sends."]
    assert written["prompts"][-1]["content"] == "A shadowed copy SillyTavern never sends."


def test_removing_the_block_keeps_its_shadow_as_sillytavern_does_and_says_so():
    # SillyTavern never drops a prompt for its identifier: deleting the first `main` (handleDeletePrompt
    # splices the first match) leaves the repeat, which getPromptById then finds.
    piece = read(with_repeats())
    blocks = [b for b in piece.body.prompts if b.identifier != "main"]
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"prompts": blocks})})
    crossing = convert_piece(edited, "sillytavern.preset.chat", no_media)
    written = json.loads(crossing.data)
    mains = [p for p in written["prompts"] if p["identifier"] == "main"]
    assert [p["content"] for p in mains] == ["A shadowed copy SillyTavern never sends."]
    revealed = [loss for loss in crossing.losses if loss.code == "preset.prompts.revealed"]
    assert [(loss.pointer, loss.action) for loss in revealed] == [("/body/prompts", "translated")]
    assert "'main'" in revealed[0].why
    assert not [loss for loss in crossing.losses if loss.code in ("preset.prompts.dropped", "crossing.not_carried")]


def test_a_renamed_block_leaves_its_shadow_in_the_file_where_it_stood():
    document = with_repeats()
    piece = read(document)
    blocks = [b.model_copy(update={"identifier": "intro"}) if b.identifier == "main" else b for b in piece.body.prompts]
    orders = [
        order.model_copy(
            update={
                "items": [
                    item.model_copy(update={"identifier": "intro"}) if item.identifier == "main" else item
                    for item in order.items
                ]
            }
        )
        for order in piece.body.orders
    ]
    body = piece.body.model_copy(update={"prompts": blocks, "orders": orders})
    crossing = convert_piece(piece.model_copy(update={"body": body}), "sillytavern.preset.chat", no_media)
    written = json.loads(crossing.data)
    assert [p["identifier"] for p in written["prompts"]] == [
        "intro" if p["identifier"] == "main" else p["identifier"] for p in document["prompts"][:-1]
    ] + ["main"]
    assert written["prompts"][-1]["content"] == "A shadowed copy SillyTavern never sends."
    assert [loss.code for loss in crossing.losses] == ["preset.prompts.revealed"]


def test_a_shadow_is_never_written_before_the_prompt_it_repeats():
    # Default's prompts start main, nsfw ...; the copy of main follows the last prompt. With main moved
    # to the end of the block list, the copy must still come after it, or SillyTavern would read the copy.
    piece = read(with_repeats())
    blocks = [b for b in piece.body.prompts if b.identifier != "main"]
    blocks.append(next(b for b in piece.body.prompts if b.identifier == "main"))
    moved = piece.model_copy(update={"body": piece.body.model_copy(update={"prompts": blocks})})
    crossing = convert_piece(moved, "sillytavern.preset.chat", no_media)
    written = json.loads(crossing.data)
    contents = [p.get("content") for p in written["prompts"] if p["identifier"] == "main"]
    assert contents[1] == "A shadowed copy SillyTavern never sends." and len(contents) == 2
    assert read_bytes(crossing.data, "Default.json", "sillytavern.preset.chat")[1].pieces[0].body == moved.body
    assert crossing.losses == []


@pytest.mark.parametrize("first_enabled", [True, False])
def test_the_render_places_a_repeated_order_entry_once_at_its_first_place(first_enabled):
    document = with_repeats()
    order = next(o for o in document["prompt_order"] if o["character_id"] == 100001)["order"]
    next(item for item in order if item["identifier"] == "main")["enabled"] = first_enabled
    preset = read(document).body.model_dump(mode="json")
    parts, _notes = assemble(Inputs("default", preset, "c", {"name": "C", "description": "d"}))
    blocks = [part["block"] for part in parts]
    assert blocks.count("main") == (1 if first_enabled else 0)
    if first_enabled:
        first_order = [item["identifier"] for item in order if item["enabled"]]
        rendered = [b for b in blocks if b in first_order]
        assert rendered == [b for b in dict.fromkeys(first_order) if b in rendered]
