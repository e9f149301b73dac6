"""SillyTavern quick-reply sets: v2 sets round-trip, v1 files are migrated as ST migrates them."""

from __future__ import annotations

import copy
import json

import pytest
from testkit import corpus_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from st_side_formats_support import random_pieces, undeclared, read_json, round_trip, unknown_keys

from bunzai.adapters.inspect import read_bytes
from bunzai.errors import BunzaiError
from bunzai.model.quickreply import ContextLink, QuickReply, QuickReplySet, QuickReplySetBody, QuickReplySettings

FORMAT = "sillytavern.quickreply"


def qr_item(number: int, **changes) -> dict:
    item = {
        "id": number,
        "icon": "fa-dice",
        "showLabel": False,
        "label": f"Roll {number}",
        "title": "Roll a die",
        "message": "/roll 1d20 | /echo {{pipe}}",
        "contextList": [{"set": "Dice", "isChained": True}],
        "preventAutoExecute": True,
        "isHidden": False,
        "executeOnStartup": False,
        "executeOnUser": True,
        "executeOnAi": False,
        "executeOnChatChange": False,
        "executeOnGroupMemberDraft": False,
        "executeOnNewChat": False,
        "executeBeforeGeneration": False,
        "automationId": "",
    }
    return item | changes


V2_SET = {
    "version": 2,
    "name": "Dice",
    "disableSend": False,
    "placeBeforeInput": True,
    "injectInput": False,
    "color": "rgba(255, 0, 0, 1)",
    "onlyBorderColor": True,
    "qrList": [qr_item(1), qr_item(3, isHidden="true")],
    "idIndex": 4,
}


def test_a_v2_set_reads_its_settings_and_items():
    piece = read_json(V2_SET, "Dice.json").pieces[0]
    assert (piece.kind, piece.id, piece.name) == ("quickreply", "dice", "Dice")
    assert piece.body.settings == QuickReplySettings(
        place_before_input=True, color="rgba(255, 0, 0, 1)", only_border_color=True
    )
    first, second = piece.body.items
    assert (first.id, first.icon, first.auto_execute, first.context_list) == (
        1,
        "fa-dice",
        ["user"],
        [ContextLink(set="dice", chained=True)],
    )
    assert (second.id, second.hidden) == (3, True)


def test_an_unedited_v2_set_writes_back_json_equal():
    piece = read_json(V2_SET, "Dice.json").pieces[0]
    crossing = round_trip(piece, FORMAT)
    assert json.loads(crossing.data) == V2_SET
    assert crossing.losses == []


def test_the_corpus_v1_set_is_migrated_as_sillytavern_migrates_it():
    data = corpus_path("sillytavern", "quick-replies", "Default.v1.json").read_bytes()
    adapter, decoded = read_bytes(data, "Default.v1.json")
    piece = decoded.pieces[0]
    assert adapter.format_id == FORMAT and piece.original.document == json.loads(data)
    assert [(item.id, item.label, item.message) for item in piece.body.items] == [
        (1, "HELP", "/?"),
        (2, "New Chat", "/newchat"),
        (3, "Match UI to Background", "/bgcol"),
    ]
    assert all(item.prevent_auto_execute and not item.auto_execute for item in piece.body.items)


def test_a_v1_set_is_written_back_as_the_v2_set_sillytavern_would_load():
    data = corpus_path("sillytavern", "quick-replies", "Default.v1.json").read_bytes()
    piece = read_bytes(data, "Default.v1.json")[1].pieces[0]
    crossing = round_trip(piece, FORMAT)
    written = json.loads(crossing.data)
    assert [loss.code for loss in crossing.losses] == ["quickreply.v1.upgraded"]
    assert (written["version"], written["name"], written["color"], written["idIndex"]) == (
        2,
        "Default",
        "transparent",
        0,  # SillyTavern's loader gives a migrated set no counter: QuickReplySet's default
    )
    assert [(item["id"], item["label"], item["message"]) for item in written["qrList"]] == [
        (1, "HELP", "/?"),
        (2, "New Chat", "/newchat"),
        (3, "Match UI to Background", "/bgcol"),
    ]
    assert "quickReplySlots" not in written
    assert read_json(written, "Default.json").pieces[0].body == piece.body


def test_v1_slot_fields_map_to_their_v2_names():
    v1 = {
        "name": "Old",
        "quickActionEnabled": True,
        "AutoInputInject": True,
        "x_root": 1,
        "quickReplySlots": [
            {
                "mes": "hi",
                "label": "Hi",
                "hidden": True,
                "autoExecute_chatLoad": True,
                "contextMenu": [{"preset": "Other", "chain": True}],
                "x_slot": [1],
            }
        ],
    }
    piece = read_json(v1, "Old.json").pieces[0]
    item = piece.body.items[0]
    assert (item.hidden, item.auto_execute, item.context_list) == (
        True,
        ["chat_change"],
        [ContextLink(set="other", chained=True)],
    )
    assert piece.body.settings.disable_send and piece.body.settings.inject_input
    written = json.loads(round_trip(piece, FORMAT).data)
    assert written["x_root"] == 1 and written["qrList"][0]["x_slot"] == [1]
    assert written["qrList"][0]["contextList"] == [{"set": "Other", "isChained": True}]


def test_an_edited_item_keeps_its_unknown_keys():
    document = copy.deepcopy(V2_SET)
    document["qrList"][0]["x_tool"] = {"keep": True}
    piece = read_json(document, "Dice.json").pieces[0]
    items = [piece.body.items[0].model_copy(update={"message": "/echo edited"}), piece.body.items[1]]
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"items": items})})
    written = json.loads(round_trip(edited, FORMAT).data)
    assert written["qrList"][0] == dict(document["qrList"][0], message="/echo edited")


def test_a_new_set_declares_what_sillytavern_cannot_hold():
    items = [QuickReply(id=1, label="Go", message="/go", context_list=[ContextLink(set="other-set")])]
    piece = QuickReplySet(
        id="new", name="New", body=QuickReplySetBody(description="d", items=items, extensions={"a": 1})
    )
    crossing = round_trip(piece, FORMAT)
    codes = {loss.code for loss in crossing.losses}
    assert codes == {
        "quickreply.context.set_by_id",
        "quickreply.set.description.dropped",
        "quickreply.set.extensions.dropped",
    }
    written = json.loads(crossing.data)
    assert (written["version"], written["color"], written["idIndex"]) == (2, "transparent", 1)  # the last id issued
    assert written["qrList"][0]["preventAutoExecute"] is True


def test_repeated_item_ids_are_renumbered_with_a_warning():
    document = dict(V2_SET, qrList=[qr_item(1), qr_item(1)])  # idIndex 4
    decoded = read_json(document, "Dice.json")
    assert [item.id for item in decoded.pieces[0].body.items] == [1, 6]  # as addQuickReply: max(4, 1) + 2
    assert any("repeats id 1" in warning for warning in decoded.warnings)


def test_a_document_that_is_not_a_set_is_refused():
    from bunzai.adapters.registry import get_adapter

    with pytest.raises(BunzaiError) as caught:
        get_adapter(FORMAT).read(b"{}", "x.json", {"name": "x"})
    assert caught.value.code == "invalid_input"


@settings(max_examples=60, deadline=None)
@given(root=unknown_keys, item=unknown_keys, link=unknown_keys)
def test_unknown_keys_in_set_items_and_links_survive_a_round_trip(root, item, link):
    document = copy.deepcopy(V2_SET) | root
    document["qrList"][0] |= item
    document["qrList"][1]["contextList"][0] |= link
    piece = read_json(document, "Dice.json").pieces[0]
    assert json.loads(round_trip(piece, FORMAT).data) == document


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_canonical_quick_reply_set_crossing_in_declares_every_loss(data):
    piece = data.draw(random_pieces("quickreply"))
    assert undeclared(round_trip(piece, FORMAT)) == []


def test_a_set_reads_when_the_caller_did_not_parse_it() -> None:
    import json

    from bunzai.adapters.registry import get_adapter

    document = {"version": 2, "name": "Tools", "qrList": [{"id": 1, "label": "Hi", "message": "/echo hi"}]}
    decoded = get_adapter("sillytavern.quickreply").read(json.dumps(document).encode(), "Tools.json", None)
    assert decoded.pieces[0].name == "Tools"
