"""A RisuAI preset written so RisuAI sends what the canonical order sends.

RisuAI sends mainPrompt, jailbreak and globalNote only without a prompt template, and with one
sends only its items (index.svelte.ts: `if(!promptTemplate)`; `for(const card of template)`), even
an empty one (`[]` is truthy). So a sent main block beside a template is a template item; a
preset the three fields cannot express is written as a whole template, markers included; a
preset with no blocks writes no template; persona and description markers carry their text as
the items' innerFormat (`.replace('{{slot}}', ...)`), chat and lorebook markers cannot.
"""

from __future__ import annotations

import json

from risu_support import risupreset_bytes
from test_risu_preset_template import TEMPLATED, no_media, open_risup, templated_piece

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.model.preset import OrderItem, PromptBlock

LEGACY = {
    "name": "Legacy",
    "mainPrompt": "Be {{char}}.",
    "jailbreak": "Stay.",
    "globalNote": "Note.",
    "temperature": 70,
}


def with_sent_block(piece, block: PromptBlock, drop: str | None = None):
    """The piece with `block` added on at the end of its global order (as preset.blocks.add does)."""
    prompts = [b for b in piece.body.prompts if b.identifier != drop] + [block]
    order = piece.body.orders[0]
    order = order.model_copy(update={"items": [*order.items, OrderItem(identifier=block.identifier)]})
    body = piece.body.model_copy(update={"prompts": prompts, "orders": [order, *piece.body.orders[1:]]})
    return piece.model_copy(update={"body": body})


def written(piece, table) -> tuple[dict, list]:
    crossing = convert_piece(piece, "risu.preset", no_media)
    return open_risup(crossing.data, table), crossing.losses


def test_a_main_block_sent_beside_a_template_is_a_template_item(table):
    main = PromptBlock(identifier="main", name="mainPrompt", content="Added back.")
    inner, _losses = written(with_sent_block(templated_piece(), main, drop="main"), table)
    assert inner["promptTemplate"][: len(TEMPLATED["promptTemplate"])] == TEMPLATED["promptTemplate"]
    assert inner["promptTemplate"][-1] == {
        "type": "plain",
        "type2": "main",
        "text": "Added back.",
        "role": "system",
        "name": "mainPrompt",
    }


def test_a_preset_without_a_template_stays_without_one(table):
    inner, losses = written(templated_piece(LEGACY), table)
    assert inner == LEGACY and losses == []


def test_a_block_added_to_a_preset_without_a_template_writes_the_whole_order(table):
    extra = PromptBlock(identifier="extra", name="Extra", content="More.", role="user")
    inner, _losses = written(with_sent_block(templated_piece(LEGACY), extra), table)
    # RisuAI's default formatingOrder (presetTemplate): main, description, personaPrompt, chats,
    # lastChat, jailbreak, lorebook, globalNote, authorNote; with a template they are its items
    assert inner["promptTemplate"] == [
        {"type": "plain", "type2": "main", "text": "Be {{char}}.", "role": "system", "name": "mainPrompt"},
        {"type": "description"},
        {"type": "persona"},
        {"type": "chat", "rangeEnd": "end", "rangeStart": 0},
        {"type": "jailbreak", "type2": "normal", "text": "Stay.", "role": "system", "name": "jailbreak"},
        {"type": "lorebook"},
        {"type": "plain", "type2": "globalNote", "text": "Note.", "role": "system", "name": "globalNote"},
        {"type": "authornote"},
        {"type": "plain", "type2": "normal", "text": "More.", "role": "user", "name": "Extra"},
    ]


def test_the_preset_s_own_formating_order_places_the_markers(table):
    legacy = dict(LEGACY, formatingOrder=["chats", "lorebook", "main", "globalNote", "description"])
    extra = PromptBlock(identifier="extra", content="More.")
    inner, _losses = written(with_sent_block(templated_piece(legacy), extra), table)
    assert [(item["type"], item.get("type2")) for item in inner["promptTemplate"]] == [
        ("chat", None),
        ("lorebook", None),
        ("plain", "main"),  # no jailbreak: the formatingOrder does not send it
        ("plain", "globalNote"),
        ("description", None),
        ("plain", "normal"),
    ]


def test_a_preset_with_no_blocks_writes_no_template(table):
    text = {"temp": 0.7, "max_length": 300, "rep_pen": 1.1}  # a SillyTavern text-completion preset
    piece = read_bytes(json.dumps(text).encode(), "Default.json", "sillytavern.preset.textgen")[1].pieces[0]
    assert piece.body.prompts == []
    inner, _losses = written(piece, table)
    assert "promptTemplate" not in inner and not {"mainPrompt", "jailbreak", "globalNote"} & set(inner)


def test_a_block_removed_from_a_preset_without_a_template_is_an_empty_field(table):
    # RisuAI's import fills a missing key from presetTemplate (its default main prompt): write "" instead
    piece = templated_piece(LEGACY)
    order = piece.body.orders[0]
    order = order.model_copy(update={"items": [i for i in order.items if i.identifier != "main"]})
    prompts = [b for b in piece.body.prompts if b.identifier != "main"]
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"prompts": prompts, "orders": [order]})})
    inner, losses = written(piece, table)
    assert inner == dict(LEGACY, mainPrompt="") and losses == []


ST = {
    "prompts": [
        {"identifier": "main", "name": "Main", "content": "Hi.", "system_prompt": True},
        {"identifier": "personaDescription", "name": "Persona", "marker": True, "content": "<u>{{slot}}</u>"},
        {"identifier": "charDescription", "name": "Char", "marker": True, "content": ""},
        {"identifier": "chatHistory", "name": "Chat History", "marker": True, "content": "Lost text."},
    ],
    "prompt_order": [
        {
            "character_id": 100001,
            "order": [
                {"identifier": i, "enabled": True}
                for i in ("main", "personaDescription", "charDescription", "chatHistory")
            ],
        }
    ],
}


def test_marker_text_becomes_inner_format_where_risuai_has_one(table):
    piece = read_bytes(json.dumps(ST).encode(), "St.json", "sillytavern.preset.chat")[1].pieces[0]
    inner, losses = written(piece, table)
    assert inner["promptTemplate"][1:] == [
        {"type": "persona", "innerFormat": "<u>{{slot}}</u>"},
        {"type": "description"},
        {"type": "chat", "rangeEnd": "end", "rangeStart": 0},
    ]
    assert [(loss.pointer, loss.code) for loss in losses if loss.code == "risu.preset.marker_text"] == [
        ("/body/prompts/3/content", "risu.preset.marker_text")
    ]
    back = read_bytes(risupreset_bytes(inner), "back.risupreset")[1].pieces[0]
    assert {b.identifier: b.content for b in back.body.prompts}["personaDescription"] == "<u>{{slot}}</u>"
