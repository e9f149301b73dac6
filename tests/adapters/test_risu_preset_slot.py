"""A persona, description, author's note or memory item whose innerFormat lacks {{slot}}.

RisuAI fills such a part by `risuChatParser(innerFormat).replace('{{slot}}', part)` (index.svelte.ts,
`case 'persona'` ...), when the innerFormat is not empty: without {{slot}} it sends the innerFormat's
text in place of the part, which is then not sent at all. Said on read; named on write where bunzai
makes such an item (not where an escrowed item goes back as it was).
"""

from __future__ import annotations

import json

import pytest
from risu_support import risupreset_bytes
from test_risu_preset_template import no_media, open_risup

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece

SLOTLESS = {
    "name": "Slotless",
    "promptTemplate": [
        {"type": "plain", "type2": "main", "text": "Hi.", "role": "system"},
        {"type": "persona", "innerFormat": "The user is a traveller."},
        {"type": "description", "innerFormat": "<char>{{slot}}</char>"},
        {"type": "authornote", "innerFormat": "", "defaultText": "Note."},  # empty: RisuAI sends the note itself
        {"type": "memory", "name": "Memory", "innerFormat": "Summary withheld."},
        {"type": "lorebook", "innerFormat": "never used"},  # RisuAI does not wrap lore
        {"type": "chat", "rangeStart": 0, "rangeEnd": "end"},
    ],
}


def read(preset: dict):
    return read_bytes(risupreset_bytes(preset), "slotless.risupreset")[1]


def test_reading_says_which_items_send_their_text_in_place_of_the_part():
    warnings = read(SLOTLESS).warnings
    assert [w.split(":")[0] for w in warnings] == ["template item 1 (persona)", "template item 4 (Memory)"]
    assert "in place of the persona" in warnings[0] and "in place of the chat memory" in warnings[1]


def test_an_unedited_slotless_item_writes_back_as_it_was_with_no_loss(table):
    crossing = convert_piece(read(SLOTLESS).pieces[0], "risu.preset", no_media)
    assert open_risup(crossing.data, table) == SLOTLESS and crossing.losses == []


def edited(piece, identifier: str, content: str):
    prompts = [
        b.model_copy(update={"content": content}) if b.identifier == identifier else b for b in piece.body.prompts
    ]
    return piece.model_copy(update={"body": piece.body.model_copy(update={"prompts": prompts})})


def test_an_item_edited_to_lose_its_slot_is_a_loss(table):
    piece = edited(read(SLOTLESS).pieces[0], "charDescription", "A fixed description.")
    crossing = convert_piece(piece, "risu.preset", no_media)
    assert open_risup(crossing.data, table)["promptTemplate"][2] == {
        "type": "description",
        "innerFormat": "A fixed description.",
    }
    index = [b.identifier for b in piece.body.prompts].index("charDescription")
    assert [(loss.pointer, loss.code) for loss in crossing.losses] == [
        (f"/body/prompts/{index}/content", "risu.preset.inner_format")
    ]
    assert "in place of the character's description" in crossing.losses[0].why


def test_an_item_edited_to_keep_a_slot_is_no_loss(table):
    piece = edited(read(SLOTLESS).pieces[0], "personaDescription", "Traveller: {{slot}}")
    crossing = convert_piece(piece, "risu.preset", no_media)
    assert open_risup(crossing.data, table)["promptTemplate"][1]["innerFormat"] == "Traveller: {{slot}}"
    assert crossing.losses == []


ST = {
    "prompts": [
        {"identifier": "main", "name": "Main", "content": "Hi.", "system_prompt": True},
        {"identifier": "personaDescription", "name": "Persona", "marker": True, "content": "Ignored by SillyTavern."},
        {"identifier": "charDescription", "name": "Char", "marker": True, "content": "[{{slot}}]"},
    ],
    "prompt_order": [
        {
            "character_id": 100001,
            "order": [{"identifier": i, "enabled": True} for i in ("main", "personaDescription", "charDescription")],
        }
    ],
}


def test_a_sillytavern_marker_text_without_a_slot_is_named_on_write(table):
    piece = read_bytes(json.dumps(ST).encode(), "St.json", "sillytavern.preset.chat")[1].pieces[0]
    crossing = convert_piece(piece, "risu.preset", no_media)
    assert open_risup(crossing.data, table)["promptTemplate"][1:] == [
        {"type": "persona", "innerFormat": "Ignored by SillyTavern."},
        {"type": "description", "innerFormat": "[{{slot}}]"},
    ]
    assert [(loss.pointer, loss.code) for loss in crossing.losses if loss.code == "risu.preset.inner_format"] == [
        ("/body/prompts/1/content", "risu.preset.inner_format")
    ]


def test_convert_to_sillytavern_warns_and_names_the_ignored_text(bunzai, tmp_path):
    (tmp_path / "slotless.risupreset").write_bytes(risupreset_bytes(SLOTLESS))
    out = tmp_path / "out.json"
    report = bunzai("convert", str(tmp_path / "slotless.risupreset"), "--to", "sillytavern.preset.chat", "-o", str(out))
    assert report.code == 0, report.stdout
    assert [w for w in report.json["warnings"] if "template item 1 (persona)" in w and "{{slot}}" in w]
    ignored = {loss["pointer"] for loss in report.json["losses"] if loss["code"] == "preset.marker.text_ignored"}
    persona = [p["identifier"] for p in json.loads(out.read_text())["prompts"]].index("personaDescription")
    assert f"/body/prompts/{persona}/content" in ignored


@pytest.mark.parametrize("kind", [["persona"], {"a": 1}, 3, None])
def test_an_item_type_that_is_no_string_is_no_slotted_part(kind) -> None:
    # a list type raised TypeError (unhashable) in the reader: a crash on a hand-edited file
    from bunzai.adapters.risu.preset import template_warnings, unslotted

    item = {"type": kind, "innerFormat": "text without a slot"}
    assert unslotted(item) is False
    assert all("innerFormat" not in warning for warning in template_warnings({"promptTemplate": [item]}))
