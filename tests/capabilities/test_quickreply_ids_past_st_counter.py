"""quickreply.items.add numbers a new reply as SillyTavern's addQuickReply would not reuse:
past its counter `idIndex` and every id it holds (QuickReplySet.js), and writing advances
the counter past the new id."""

from __future__ import annotations

import json

from bundle_support import preview
from hypothesis import given
from hypothesis import strategies as st

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.model import dump_piece
from bunzai.validate import validate_piece

FORMAT = "sillytavern.quickreply"


def _st_set(ids: list[int], id_index: int) -> dict:
    items = [{"id": number, "label": f"Q{number}", "message": f"/echo {number}"} for number in ids]
    return {"version": 2, "name": "Dice", "color": "transparent", "qrList": items, "idIndex": id_index}


def _piece(document: dict):
    return read_bytes(json.dumps(document).encode(), "Dice.json")[1].pieces[0]


def test_a_new_reply_is_numbered_past_the_counter_not_past_the_items():
    piece = _piece(_st_set([1, 3], 7))  # ST handed out 4..7 once; their replies are gone
    result = preview("quickreply.items.add", dump_piece(piece), {"items": [{"label": "New", "message": "/new"}]})
    # addQuickReply: `id = Math.max(7, 1, 3) + 1`, then `data.id = idIndex = id + 1`
    assert [item["id"] for item in result.after["body"]["items"]] == [1, 3, 9]


def test_a_set_never_in_sillytavern_is_numbered_by_the_same_rule():
    piece = _piece(_st_set([1, 3], 7)).model_copy(update={"original": None})
    result = preview("quickreply.items.add", dump_piece(piece), {"items": [{"label": "New"}, {"label": "Two"}]})
    assert [item["id"] for item in result.after["body"]["items"]] == [1, 3, 5, 7]


@given(
    ids=st.lists(st.integers(0, 40), unique=True, max_size=6),
    id_index=st.integers(0, 60),
    added=st.integers(1, 3),
)
def test_added_replies_take_ids_sillytavern_never_handed_out_and_the_counter_moves_past_them(ids, id_index, added):
    document = _st_set(ids, id_index)
    piece = _piece(document)
    new = [{"label": f"N{n}", "message": "/n"} for n in range(added)]
    result = preview("quickreply.items.add", dump_piece(piece), {"items": new})
    fresh = [item["id"] for item in result.after["body"]["items"][len(ids) :]]
    assert min(fresh) > max([id_index] + ids)  # no id ST may have given a reply it deleted
    written = json.loads(convert_piece(validate_piece(result.after), FORMAT, lambda ref: b"").data)
    assert [item["id"] for item in written["qrList"]] == ids + fresh
    assert written["idIndex"] >= max(fresh)  # so ST's next reply is numbered past them too


@given(ids=st.lists(st.integers(0, 40), unique=True, max_size=6), id_index=st.integers(0, 60))
def test_a_reply_added_takes_the_id_the_adapter_gives_a_reply_with_none(ids, id_index):
    # one rule: an item read without an id is numbered as the capability numbers a new one
    document = _st_set(ids, id_index)
    result = preview("quickreply.items.add", dump_piece(_piece(document)), {"items": [{"label": "New"}]})
    document["qrList"].append({"label": "New", "message": ""})
    read = _piece(document)
    assert result.after["body"]["items"][-1]["id"] == read.body.items[-1].id
