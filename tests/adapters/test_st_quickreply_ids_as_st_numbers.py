"""Quick-reply ids a set repeats (or lacks) are numbered as SillyTavern numbers a new reply.

QuickReplySet.js addQuickReply: `const id = Math.max(this.idIndex, ...every id) + 1;
data.id = this.idIndex = id + 1`. So a renumbered reply takes an id past the set's counter
`idIndex` (ids handed out to replies since deleted) and past every id, later ones included;
the counter becomes the last id handed out, and is written so.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from st_side_formats_support import read_json, round_trip

FORMAT = "sillytavern.quickreply"


def qr_set(ids: list, id_index=None, **more) -> dict:
    items = [{"label": f"Q{n}", "message": f"/echo {n}", "x_keep": n} for n in range(len(ids))]
    for item, number in zip(items, ids):
        if number is not None:
            item["id"] = number
    document = {"version": 2, "name": "Dice", "color": "transparent", "qrList": items} | more
    return document if id_index is None else document | {"idIndex": id_index}


def test_a_repeat_takes_the_id_sillytavern_would_hand_out_past_its_counter_and_later_ids():
    decoded = read_json(qr_set([1, 1, 2], id_index=7), "Dice.json")
    assert [item.id for item in decoded.pieces[0].body.items] == [1, 9, 2]  # not 2, which a later reply holds
    assert decoded.warnings == ["quick reply 2 repeats id 1; it is given id 9, as SillyTavern numbers a new one"]


def test_a_reply_without_an_id_does_not_take_the_id_of_a_later_one():
    items = read_json(qr_set([None, 1]), "Dice.json").pieces[0].body.items
    assert [item.id for item in items] == [3, 1]  # no idIndex: QuickReplySet's 0; max(0, 1) + 2


def test_written_back_the_renumbered_replies_keep_their_keys_and_the_counter_follows():
    decoded = read_json(qr_set([1, 1, 1], id_index=4), "Dice.json")
    written = json.loads(round_trip(decoded.pieces[0], FORMAT).data)
    assert [(item["id"], item["x_keep"]) for item in written["qrList"]] == [(1, 0), (6, 1), (8, 2)]
    assert written["idIndex"] == 8
    again = read_json(written, "Dice.json")
    assert again.warnings == [] and again.pieces[0].body == decoded.pieces[0].body


def test_a_set_without_repeats_keeps_its_counter_as_written():
    document = qr_set([1, 3], id_index="5")
    assert json.loads(round_trip(read_json(document, "Dice.json").pieces[0], FORMAT).data) == document


@given(
    ids=st.lists(st.one_of(st.none(), st.integers(0, 8)), max_size=10),
    id_index=st.one_of(st.none(), st.integers(0, 12)),
)
def test_ids_read_unique_held_ids_kept_fresh_ones_past_all_and_a_round_trip_is_stable(ids, id_index):
    decoded = read_json(qr_set(ids, id_index), "Dice.json")
    read = [item.id for item in decoded.pieces[0].body.items]
    assert len(set(read)) == len(read)
    holds = [number is not None and number not in ids[:index] for index, number in enumerate(ids)]
    assert all(read[index] == ids[index] for index in range(len(ids)) if holds[index])  # no reply loses its id
    fresh = [read[index] for index in range(len(ids)) if not holds[index]]
    floor = max([id_index or 0] + [number for number in ids if number is not None])
    assert all(number > floor for number in fresh) and len(decoded.warnings) == len(fresh)
    written = json.loads(round_trip(decoded.pieces[0], FORMAT).data)
    assert [item["id"] for item in written["qrList"]] == read
    assert written.get("idIndex", 0) >= max(fresh, default=0)
    again = read_json(written, "Dice.json")
    assert again.warnings == [] and again.pieces[0].body == decoded.pieces[0].body
    assert [item["x_keep"] for item in written["qrList"]] == list(range(len(ids)))
