"""Lorebook capabilities on real entries (the Eldoria world, and books of thousands made from it):
many uids are found through one index of the book; entries moved, copied or created at a place
are listed there by SillyTavern's editor; a nested field updated in part keeps the rest."""

from __future__ import annotations

import copy
import json

import pytest

from corpus_pieces import eldoria, run
from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from bunzai.model.lorebook import Lorebook
from testkit import corpus_path


def big_book(size: int) -> dict:
    piece = eldoria()
    real = piece["body"]["entries"]
    piece["body"]["entries"] = [
        dict(copy.deepcopy(real[n % len(real)]), uid=n, title=f"{real[n % len(real)]['title']} {n}", display_index=n)
        for n in range(size)
    ]
    return piece


class Counted:
    reads = 0

    def __init__(self, uid) -> None:
        self._uid = uid

    @property
    def uid(self):
        Counted.reads += 1
        return self._uid


def test_finding_many_uids_reads_each_entry_once():
    from bunzai.capabilities.lorebook.entries import positions_of

    entries = [Counted(n) for n in range(3000)]
    Counted.reads = 0
    wanted = list(range(2999, -1, -2))
    assert positions_of(entries, wanted) == wanted
    assert Counted.reads <= len(entries)  # one scan per uid reads count**2 / 4 of them


def test_removing_and_disabling_half_of_a_big_book():
    piece = big_book(2000)
    odd = list(range(1, 2000, 2))
    removed = run("lorebook.entries.remove", piece, {"uids": odd})["proposed"]["body"]["entries"]
    assert [entry["uid"] for entry in removed] == list(range(0, 2000, 2))
    switched = run("lorebook.entries.enable", piece, {"uids": odd, "enabled": False})["proposed"]["body"]["entries"]
    assert [entry["uid"] for entry in switched if not entry["enabled"]] == odd


def test_an_unknown_uid_among_many_is_named():
    with pytest.raises(BunzaiError) as caught:
        run("lorebook.entries.remove", big_book(50), {"uids": [1, 2, "ghost"]})
    assert caught.value.code == "invalid_input" and "'ghost'" in caught.value.message


def sillytavern_editor_order(world: dict) -> list:
    """The uids in the order SillyTavern's editor lists them under its Custom sort (world-info.js:
    displayIndex, an entry without one at its uid; ties by order descending, then uid)."""
    entries = list(world["entries"].values())
    entries.sort(key=lambda e: (e.get("displayIndex", e["uid"]), -e.get("order", 100), e["uid"]))
    return [entry["uid"] for entry in entries]


@pytest.mark.parametrize("order", [[3, 2, 1, 0], [1, 3, 0, 2]])
def test_a_reorder_of_an_old_world_shows_in_sillytavern(order):
    data = corpus_path("sillytavern", "worlds", "Eldoria.pre-2024-09.json").read_bytes()
    piece = read_bytes(data, "Eldoria.json")[1].pieces[0]
    assert all(entry.display_index is None for entry in piece.body.entries)
    draft = run("lorebook.entries.reorder", piece.model_dump(mode="json"), {"order": order})
    crossing = convert_piece(Lorebook.model_validate(draft["proposed"]), "sillytavern.world", lambda ref: b"")
    assert sillytavern_editor_order(json.loads(crossing.data)) == order


def test_moving_an_entry_in_a_book_where_some_entries_lack_a_display_index():
    piece = big_book(6)
    for entry in piece["body"]["entries"][3:]:
        entry["display_index"] = None
    moved = run("lorebook.entries.reorder", piece, {"uid": 5, "to": 1})["proposed"]["body"]["entries"]
    assert [(e["uid"], e["display_index"]) for e in moved] == [(0, 0), (5, 1), (1, 2), (2, 3), (3, 4), (4, 5)]


@pytest.mark.parametrize("uid", [0, 1, 2, 3])
def test_a_copy_is_listed_right_after_its_original_in_sillytavern(uid):
    data = corpus_path("sillytavern", "worlds", "Eldoria.json").read_bytes()
    piece = read_bytes(data, "Eldoria.json")[1].pieces[0]
    draft = run("lorebook.entries.duplicate", piece.model_dump(mode="json"), {"uid": uid})
    crossing = convert_piece(Lorebook.model_validate(draft["proposed"]), "sillytavern.world", lambda ref: b"")
    listed = sillytavern_editor_order(json.loads(crossing.data))
    assert listed == [entry["uid"] for entry in draft["proposed"]["body"]["entries"]]
    assert listed[listed.index(uid) + 1] == 4


@pytest.mark.parametrize("at", [0, 1, 3])
def test_entries_created_at_a_place_are_listed_there_in_sillytavern(at):
    data = corpus_path("sillytavern", "worlds", "Eldoria.json").read_bytes()
    piece = read_bytes(data, "Eldoria.json")[1].pieces[0]
    new = [{"title": "river", "keys": ["river"]}, {"title": "lake", "keys": ["lake"]}]
    draft = run("lorebook.entries.create", piece.model_dump(mode="json"), {"entries": new, "at": at})
    entries = draft["proposed"]["body"]["entries"]
    assert [entry["uid"] for entry in entries[at : at + 2]] == [4, 5]
    crossing = convert_piece(Lorebook.model_validate(draft["proposed"]), "sillytavern.world", lambda ref: b"")
    assert sillytavern_editor_order(json.loads(crossing.data)) == [entry["uid"] for entry in entries]


@pytest.mark.parametrize(
    "part, expected",
    [
        ({"override": True}, {"names": ["rivals", "kin"], "override": True, "weight": 30, "use_group_scoring": True}),
        ({"weight": 5}, {"names": ["rivals", "kin"], "override": False, "weight": 5, "use_group_scoring": True}),
        ({"names": ["solo"]}, {"names": ["solo"], "override": False, "weight": 30, "use_group_scoring": True}),
    ],
)
def test_updating_part_of_an_entry_group_keeps_the_rest(part, expected):
    piece = big_book(3)
    piece["body"]["entries"][1]["group"] = {"names": ["rivals", "kin"], "override": False, "weight": 30}
    piece["body"]["entries"][1]["group"]["use_group_scoring"] = True
    draft = run("lorebook.entries.update", piece, {"uid": 1, "set": {"group": part}})
    assert draft["proposed"]["body"]["entries"][1]["group"] == expected
    assert {change["path"] for change in draft["changes"]} == {f"/body/entries/1/group/{key}" for key in part}
