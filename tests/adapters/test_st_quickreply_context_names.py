"""A rewritten context link keeps the set name SillyTavern finds the set by (not its bunzai id)."""

from __future__ import annotations

import json

from st_side_formats_support import read_json, round_trip

from bunzai.model.quickreply import ContextLink

FORMAT = "sillytavern.quickreply"


def _item(number: int, links: list[dict]) -> dict:
    return {"id": number, "label": f"Button {number}", "message": f"/echo {number}", "contextList": links}


SET = {
    "version": 2,
    "name": "My Tools",
    "qrList": [
        _item(1, [{"set": "Other Set", "isChained": False}]),
        _item(2, [{"set": "Ünïcødé Set!!", "isChained": True}]),
    ],
    "idIndex": 3,
}


def _edited(piece, index: int, **changes):
    items = list(piece.body.items)
    items[index] = items[index].model_copy(update=changes)
    return piece.model_copy(update={"body": piece.body.model_copy(update={"items": items})})


def test_a_renumbered_item_keeps_its_links_set_names():
    piece = read_json(SET, "My Tools.json").pieces[0]
    crossing = round_trip(_edited(piece, 0, id=60), FORMAT)
    written = json.loads(crossing.data)["qrList"]
    assert written[0]["contextList"] == [{"set": "Other Set", "isChained": False}]
    assert "quickreply.context.set_by_id" not in {loss.code for loss in crossing.losses}


def test_an_added_link_keeps_the_names_already_known_and_declares_the_new_one():
    piece = read_json(SET, "My Tools.json").pieces[0]
    links = [*piece.body.items[1].context_list, ContextLink(set="my-tools"), ContextLink(set="brand-new")]
    crossing = round_trip(_edited(piece, 1, context_list=links), FORMAT)
    written = json.loads(crossing.data)["qrList"][1]["contextList"]
    assert [link["set"] for link in written] == ["Ünïcødé Set!!", "My Tools", "brand-new"]
    assert [loss.pointer for loss in crossing.losses if loss.code == "quickreply.context.set_by_id"] == [
        "/body/items/1/context_list"
    ]
