"""A RisuAI prompt template read as RisuAI sends it, and crossed to SillyTavern with its losses named.

RisuAI's SillyTavern import (importPreset) turns the markers chatHistory, worldInfoBefore,
charDescription and personaDescription into the template items chat (0 to end), lorebook,
description and persona; read back, those items are the markers again. RisuAI sends
mainPrompt, jailbreak and globalNote only when the preset has no template (index.svelte.ts,
`if(!promptTemplate)`), so beside a template they are disabled blocks in no order.
"""

from __future__ import annotations

import gzip
import json

from cards_support import read
from risu_support import risup_bytes, risupreset_bytes

from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.risu import aesgcm, rpack
from bunzai.adapters.risu.msgpack_read import unpack
from bunzai.adapters.risu.preset import IV, KEY
from bunzai.convert import convert_piece

TEMPLATED = {
    "name": "Templated",
    "mainPrompt": "Old main, unused beside a template.",
    "jailbreak": "Old jailbreak.",
    "globalNote": "Old note.",
    "temperature": 80,
    "promptTemplate": [
        {"type": "plain", "type2": "main", "text": "You are {{char}}.", "role": "system"},
        {"type": "persona", "innerFormat": "<user>{{slot}}</user>"},
        {"type": "description", "name": "Card"},
        {"type": "lorebook"},
        {"type": "chat", "rangeStart": 0, "rangeEnd": "end", "chatAsOriginalOnSystem": True},
        {"type": "authornote", "defaultText": "Note default."},
        {"type": "lorebook"},
        {"type": "jailbreak", "type2": "normal", "text": "Stay in role.", "role": "system"},
        {"type": "postEverything"},
    ],
    "someOther": {"kept": True},
}
IDENTIFIERS = [
    "template-0",
    "personaDescription",
    "charDescription",
    "worldInfoBefore",
    "chatHistory",
    "template-5",
    "template-6",  # a second lorebook: SillyTavern has one
    "template-7",
    "template-8",
]


def no_media(ref):
    raise AssertionError("a preset has no media")


def templated_piece(preset: dict = TEMPLATED):
    return read_bytes(risupreset_bytes(preset), "templated.risupreset")[1].pieces[0]


def test_template_items_read_as_the_markers_sillytavern_knows():
    body = templated_piece().body
    assert [b.identifier for b in body.prompts] == ["main", "jailbreak", "globalNote", *IDENTIFIERS]
    assert [b.marker for b in body.prompts[3:]] == [False, True, True, True, True, True, True, False, True]
    assert [item.identifier for item in body.orders[0].items] == IDENTIFIERS


def test_the_fields_risuai_ignores_beside_a_template_are_disabled_blocks_in_no_order():
    body = templated_piece().body
    legacy = {b.identifier: b for b in body.prompts[:3]}
    assert {k: (b.content, b.enabled) for k, b in legacy.items()} == {
        "main": ("Old main, unused beside a template.", False),
        "jailbreak": ("Old jailbreak.", False),
        "globalNote": ("Old note.", False),
    }
    assert not set(legacy) & {item.identifier for item in body.orders[0].items}


def test_without_a_template_the_fields_are_the_order():
    legacy = {k: v for k, v in TEMPLATED.items() if k != "promptTemplate"}
    body = templated_piece(legacy).body
    # RisuAI's default formatingOrder: main, description, personaPrompt, chats, lastChat, jailbreak,
    # lorebook, globalNote, authorNote (chats and lastChat are the one chat history)
    sent = [
        "main",
        "charDescription",
        "personaDescription",
        "chatHistory",
        "jailbreak",
        "worldInfoBefore",
        "globalNote",
        "authorNote",
    ]
    assert [(b.identifier, b.enabled, b.marker) for b in body.prompts] == [
        (i, True, i not in ("main", "jailbreak", "globalNote")) for i in sent
    ]
    assert [item.identifier for item in body.orders[0].items] == sent


def test_without_a_template_the_preset_s_formating_order_is_the_order():
    legacy = {k: v for k, v in TEMPLATED.items() if k != "promptTemplate"}
    legacy |= {"formatingOrder": ["chats", "main", "lorebook", "lastChat", "chats"], "globalNote": ""}
    body = templated_piece(legacy).body
    # the jailbreak the order leaves out is not sent; the empty globalNote sends nothing
    assert [(b.identifier, b.enabled) for b in body.prompts] == [
        ("chatHistory", True),
        ("main", True),
        ("worldInfoBefore", True),
        ("jailbreak", False),
    ]


def test_a_preset_without_a_template_crossed_to_sillytavern_keeps_its_chat_and_reports_the_author_s_note():
    legacy = {k: v for k, v in TEMPLATED.items() if k != "promptTemplate"}
    crossing = convert_piece(templated_piece(legacy), "sillytavern.preset.chat", no_media)
    order = json.loads(crossing.data)["prompt_order"][0]["order"]
    assert [item["identifier"] for item in order][:4] == [
        "main",
        "charDescription",
        "personaDescription",
        "chatHistory",
    ]
    assert [loss.code for loss in crossing.losses if loss.code.startswith("preset.marker")] == ["preset.marker.unknown"]


def test_a_partial_chat_range_is_not_the_whole_chat_history():
    preset = dict(TEMPLATED, promptTemplate=[{"type": "chat", "rangeStart": 0, "rangeEnd": -2}])
    assert [b.identifier for b in templated_piece(preset).body.prompts][3:] == ["template-0"]


def test_a_templated_preset_crossed_to_sillytavern_keeps_chat_description_persona_and_lore():
    crossing = convert_piece(templated_piece(), "sillytavern.preset.chat", no_media)
    written = json.loads(crossing.data)
    # RisuAI's one order is the global one: SillyTavern's 100001, the list it uses (100000 it ignores)
    assert [o["character_id"] for o in written["prompt_order"]] == [100001]
    order = written["prompt_order"][0]["order"]
    assert [item["identifier"] for item in order] == IDENTIFIERS
    assert all(item["enabled"] for item in order)
    prompts = {p["identifier"]: p for p in written["prompts"]}
    assert {k: prompts[k].get("enabled") for k in ("main", "jailbreak", "globalNote")} == dict.fromkeys(
        ("main", "jailbreak", "globalNote"), False
    )
    losses = {(loss.pointer, loss.code) for loss in crossing.losses}
    # authornote, the second lorebook and postEverything have no SillyTavern marker
    assert {pointer for pointer, code in losses if code == "preset.marker.unknown"} == {
        "/body/prompts/8",
        "/body/prompts/9",
        "/body/prompts/11",
    }
    # the persona item's innerFormat wraps the persona in RisuAI; SillyTavern fills the marker without it
    assert ("/body/prompts/4/content", "preset.marker.text_ignored") in losses
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def test_a_sillytavern_preset_round_trip_reports_no_marker_losses():
    st = {
        "prompts": [
            {"identifier": "main", "name": "Main", "content": "Hi.", "system_prompt": True},
            {"identifier": "chatHistory", "name": "Chat History", "system_prompt": True, "marker": True},
            {"identifier": "custom", "name": "Custom", "marker": True},  # the file's own: not named again
        ],
        "prompt_order": [{"character_id": 100000, "order": [{"identifier": "main", "enabled": True}]}],
    }
    piece = read_bytes(json.dumps(st).encode(), "St.json", "sillytavern.preset.chat")[1].pieces[0]
    crossing = convert_piece(piece, "sillytavern.preset.chat", no_media)
    assert json.loads(crossing.data) == st
    assert not [loss for loss in crossing.losses if loss.code.startswith("preset.marker.")]


def open_risup(data: bytes, table: rpack.Table) -> dict:
    outer = unpack(gzip.decompress(table.decode(data)), "outer")
    return unpack(aesgcm.decrypt(KEY, IV, outer.pop("preset"), "inner"), "inner")


def test_a_templated_preset_round_trips_to_risuai_unchanged(table):
    _adapter, decoded, media = read(risup_bytes(TEMPLATED, table), "templated.risup")
    crossing = convert_piece(decoded.pieces[0], "risu.preset", media)
    assert open_risup(crossing.data, table) == TEMPLATED and crossing.losses == []


def test_an_edited_marker_keeps_its_template_item(table):
    _adapter, decoded, media = read(risup_bytes(TEMPLATED, table), "templated.risup")
    piece = decoded.pieces[0]
    prompts = [
        b.model_copy(update={"content": "<me>{{slot}}</me>"}) if b.identifier == "personaDescription" else b
        for b in piece.body.prompts
    ]
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"prompts": prompts})})
    inner = open_risup(convert_piece(piece, "risu.preset", media).data, table)
    assert inner["promptTemplate"][1] == {"type": "persona", "innerFormat": "<me>{{slot}}</me>"}
    assert inner["promptTemplate"][4] == TEMPLATED["promptTemplate"][4]  # chatAsOriginalOnSystem kept
    assert inner["mainPrompt"] == TEMPLATED["mainPrompt"]


def test_risu_to_sillytavern_and_back_keeps_the_ignored_fields(table):
    st = convert_piece(templated_piece(), "sillytavern.preset.chat", no_media)
    back = read_bytes(st.data, "Templated.json", "sillytavern.preset.chat")[1].pieces[0]
    inner = open_risup(convert_piece(back, "risu.preset", no_media).data, table)
    assert [inner[k] for k in ("mainPrompt", "jailbreak", "globalNote")] == [
        TEMPLATED["mainPrompt"],
        TEMPLATED["jailbreak"],
        TEMPLATED["globalNote"],
    ]
    assert [item["type"] for item in inner["promptTemplate"]] == [
        "plain",
        "persona",
        "description",
        "lorebook",
        "chat",
        "plain",  # the template's jailbreak item, a text block to SillyTavern
    ]
