"""A draft's impact names the entries a change touched: entries taken out of, or put into,
the middle of a book are their own places, not a change of every entry after them
(platform_impact's `diff.aligned(..., whole=False, removed=False)` sets aside the items the
list kept: `diff.stretches`)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunzai import convert as convert_module
from bunzai.changes.diff import aligned, all_changes
from bunzai.convert import platform_impact
from bunzai.model import dump_piece
from bunzai.validate import validate_piece
from tests.capabilities.corpus_pieces import eldoria

# Few distinct items, so that an item often equals its neighbours and the place of an
# insertion is ambiguous.
_ITEMS = st.lists(st.sampled_from([0, 1, {"a": 1}, {"a": 2}, [1]]), max_size=8)


def _rows(old: list, new: list) -> list[dict]:
    return aligned(all_changes({"list": old}, {"list": new}, ""), whole=False, removed=False)


# Items told apart, as a book's entries are by their uids (items found more than once in a
# list are anchored only by the list's kept ends, and compared place for place between).
_DISTINCT = st.lists(st.sampled_from([0, 1, 2, 3, {"a": 1}, {"a": 2}, [1], "x"]), max_size=8, unique_by=repr)


@given(_DISTINCT, st.data())
def test_items_taken_out_anywhere_are_no_row(items: list, data) -> None:
    gone = data.draw(st.sets(st.integers(0, max(len(items) - 1, 0)), max_size=len(items)))
    fewer = [item for n, item in enumerate(items) if n not in gone]
    assert _rows(items, fewer) == []


@given(_ITEMS, st.sampled_from([0, 1, {"a": 3}, [2]]), st.data())
def test_an_item_put_in_anywhere_is_one_add_where_it_stands(items: list, item, data) -> None:
    more = list(items)
    more.insert(data.draw(st.integers(0, len(items))), item)
    (row,) = _rows(items, more)
    place = int(row["path"].rsplit("/", 1)[1])
    assert row["op"] == "add" and more[place] == item and more[:place] + more[place + 1 :] == items


def test_items_changed_between_removals_are_named_at_their_new_places() -> None:
    old = [{"a": n} for n in range(8)]
    new = [old[0], old[2], {"a": 33}, old[4], old[6], old[7]]  # 1 and 5 taken out, 3 changed
    assert [row["path"] for row in _rows(old, new)] == ["/list/2/a"]


def _valid(document: dict) -> dict:
    return dump_piece(validate_piece(document))


def _grown(book: dict, size: int) -> dict:
    """Eldoria's entries repeated to `size` entries, each with a uid of its own."""
    grown = copy.deepcopy(book)
    entries = grown["body"]["entries"]
    grown["body"]["entries"] = [{**entries[n % len(entries)], "uid": n, "display_index": n} for n in range(size)]
    return _valid(grown)


@pytest.mark.parametrize("gone", [[5], [5, 1_500], [0, 700, 1_999]])
def test_removing_entries_from_a_big_book_crosses_nothing(gone, monkeypatch) -> None:
    before = _grown(eldoria(), 2_000)
    proposed = copy.deepcopy(before)
    for place in sorted(gone, reverse=True):
        del proposed["body"]["entries"][place]

    def crossed(*args, **kwargs):
        raise AssertionError("a removal crossed a format")

    monkeypatch.setattr(convert_module, "convert_piece", crossed)
    assert platform_impact(before, proposed) == []


def test_entries_put_into_the_middle_of_a_book_are_the_only_entries_named() -> None:
    before = _grown(eldoria(), 40)
    proposed = copy.deepcopy(before)
    new_entry = {**proposed["body"]["entries"][3], "uid": 1000, "display_index": 7, "sticky": 2}
    proposed["body"]["entries"].insert(30, {**new_entry, "uid": 1001})
    proposed["body"]["entries"].insert(12, new_entry)
    del proposed["body"]["entries"][20]
    proposed = _valid(proposed)
    rows = platform_impact(before, proposed)
    assert rows, "the new entries' display_index and sticky are not carried everywhere"
    assert {row["pointer"].split("/")[3] for row in rows} == {"12", "30"}
    assert rows == platform_impact(before, proposed, whole=True)
