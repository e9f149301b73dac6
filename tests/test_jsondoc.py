"""One JSON equality and one walk, shared by the drafts' diff and the adapters' read-back."""

from __future__ import annotations

import copy
import json

from hypothesis import example, given, strategies as st

from bunzai.adapters.common.losses import differences as readback_differences, same
from bunzai.changes.diff import aligned, all_changes, diff_json, draft_changes, stretches
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import MISSING, changes, differences, equal, join
from bunzai.query.pointer import resolve

scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-5, 5, allow_nan=False) | st.text(max_size=3)
keys = st.sampled_from(["a", "b", "x/y", "t~1", ""])
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3), max_leaves=12
)
# Lists of items with ids, as books, presets and rule sets hold them (changes/diff.py IDENTITY_FIELDS).
_ID_ITEMS = st.lists(
    st.fixed_dictionaries({"id": st.integers(0, 7) | st.sampled_from(["a", "1"]), "v": st.integers(0, 2)}),
    max_size=8,
    unique_by=lambda item: (type(item["id"]), item["id"]),
)


def test_true_is_not_one_but_one_is_one_point_zero() -> None:
    assert not equal(True, 1) and not equal(1, True) and not equal(False, 0) and not equal(0.0, False)
    assert equal(1, 1.0) and equal({"x": [2]}, {"x": [2.0]})
    assert not equal({"a": {"x": True}}, {"a": {"x": 1}})
    assert not equal("1", 1) and not equal(None, 0) and not equal([], {})
    assert not equal({"x": 1}, {"x": 1, "y": None})


def test_diff_and_read_back_agree_on_a_nested_true_against_one() -> None:
    # diff_json once compared subtrees with Python's ==, where {"x": True} == {"x": 1}.
    before, after = {"a": {"x": True}}, {"a": {"x": 1}}
    assert diff_json(before, after) == [{"op": "replace", "path": "/a/x", "before": True, "after": 1}]
    assert list(readback_differences(before, after, "")) == ["/a/x"]
    assert diff_json({"a": [1, {"n": 2}]}, {"a": [1.0, {"n": 2.0}]}) == []


def test_rows_name_adds_removes_and_whole_list_replaces() -> None:
    before = {"keep": 1, "gone": "x", "list": [1, 2], "other": [1, 2], "a/b": {"c": 1}}
    after = {"keep": 1, "new": True, "list": [1, 2, 3], "other": [3, 4, 5], "a/b": {"c": 2}}
    assert diff_json(before, after) == [
        {"op": "replace", "path": "/a~1b/c", "before": 1, "after": 2},
        {"op": "remove", "path": "/gone", "before": "x"},
        {"op": "add", "path": "/list/2", "after": 3},  # kept its start: the item added is the row
        {"op": "add", "path": "/new", "after": True},
        {"op": "replace", "path": "/other", "before": [1, 2], "after": [3, 4, 5]},  # kept nothing
    ]


def test_a_list_that_kept_its_ends_is_told_item_by_item() -> None:
    book = [{"uid": n} for n in range(6)]
    assert diff_json(book, book[:2] + book[3:], "/e") == [{"op": "remove", "path": "/e/2", "before": {"uid": 2}}]
    assert diff_json(book, book[:4] + [{"uid": 9}] + book[4:], "/e") == [
        {"op": "add", "path": "/e/4", "after": {"uid": 9}}
    ]
    # uid 1 taken out and uid 3's title changed: uid 2 is kept between them, so each edit is
    # its own row, the change named at the entry's new place
    titled = [dict(entry, title=f"t{entry['uid']}") for entry in book]
    changed = [titled[0], titled[2], dict(titled[3], title="new"), titled[4], titled[5]]
    assert diff_json(titled, changed, "/e") == [
        {"op": "remove", "path": "/e/1", "before": {"uid": 1, "title": "t1"}},
        {"op": "replace", "path": "/e/2/title", "before": "t3", "after": "new"},
    ]
    # a uid changed in place, to one the book lacked, is a rename (a sprite relabelled)
    assert diff_json(book, [*book[:3], {"uid": 33}, *book[4:]], "/e") == [
        {"op": "replace", "path": "/e/3/uid", "before": 3, "after": 33}
    ]
    # where the list also grew, a new uid is another entry: taken out, and put in
    assert diff_json(book, [*book[:3], {"uid": 33}, *book[4:], {"uid": 6}], "/e") == [
        {"op": "remove", "path": "/e/3", "before": {"uid": 3}},
        {"op": "add", "path": "/e/3", "after": {"uid": 33}},
        {"op": "add", "path": "/e/6", "after": {"uid": 6}},
    ]
    # an entry moved and one taken out: one move (from its old place to its new one)
    moved = [book[5], *book[:2], *book[3:5]]
    assert diff_json(book, moved, "/e") == [
        {"op": "remove", "path": "/e/2", "before": {"uid": 2}},
        {"op": "move", "from": "/e/5", "path": "/e/0"},
    ]
    # in a list of the same length too: told by uid, not a change of every place it passed
    assert diff_json(book, [book[5], *book[:5]], "/e") == [{"op": "move", "from": "/e/5", "path": "/e/0"}]
    # items without ids are compared place for place, moves and all
    plain = [{"n": n} for n in range(6)]
    assert [row["path"] for row in diff_json(plain, [plain[5], *plain[:5]], "/e")][:2] == ["/e/0/n", "/e/1/n"]
    assert diff_json([], [1], "/e") == [{"op": "replace", "path": "/e", "before": [], "after": [1]}]


@given(values, values)
def test_no_change_exactly_when_equal(a, b) -> None:
    assert (list(differences(a, b)) == []) == equal(a, b)
    assert (diff_json(a, b) == []) == equal(a, b)


@given(values, values)
def test_the_diff_and_the_read_back_report_the_same_pointers(a, b) -> None:
    # the same walk; a draft's rows then tell apart the items of a list that kept its ends
    assert [row["path"] for row in all_changes(a, b, "/body")] == list(readback_differences(a, b, "/body"))


def _at(doc, pointer: str):
    try:
        return resolve(doc, pointer)
    except BunzaiError:
        return MISSING


@given(values, values)
@example(
    a=[None, [{}, {}, {"a": None, "b": 0.0, "x/y": 5}], {"a": None}],
    b=[[{}, {}, {"a": None, "b": 0.0, "x/y": 5}], {}],
)
def test_each_draft_row_points_at_the_values_it_names(a, b) -> None:
    """A list item taken out is named at its place in `a`; an added one, and a replaced value,
    at its place in `b` (the value it replaced may have stood elsewhere in `a`); a key taken out
    of an item is named at the item's place in `b`, where the key is gone."""
    rows = aligned(draft_changes(a, b, ""))
    assert (rows == []) == equal(a, b)
    for row in rows:
        if row["op"] == "move":  # the same item (by id) at both places
            assert resolve(a, row["from"])["id"] == resolve(b, row["path"])["id"]
        elif row["op"] == "remove":
            parent, _, key = row["path"].rpartition("/")
            holder = _at(b, parent)
            key_gone = isinstance(holder, dict) and key.replace("~1", "/").replace("~0", "~") not in holder
            assert equal(_at(a, row["path"]), row["before"]) or key_gone
        else:
            assert equal(resolve(b, row["path"]), row["after"])


_ITEMS = st.lists(st.sampled_from([0, 1, 2, True, "x", {"a": 1}, {"a": 2}, [1]]), max_size=9)


@given(_ITEMS, _ITEMS)
def test_a_list_s_rows_account_for_every_item(old, new) -> None:
    """Set aside the items removed (at their old places) and added (at their new places):
    what is left pairs up in order, and a pair differs exactly where rows name its new place."""
    rows = aligned(all_changes({"l": old}, {"l": new}, ""))
    if [row["path"] for row in rows] == ["/l"]:  # kept none of its items: one replace
        assert rows[0]["op"] == "replace" and stretches(old, new) == [(0, len(old), 0, len(new))]
        return
    items = [row for row in rows if row["path"].count("/") == 2]  # a remove and an add may share a path
    removed = {int(row["path"][3:]) for row in items if row["op"] == "remove"}
    added = {int(row["path"][3:]) for row in items if row["op"] == "add"}
    left_old = [item for n, item in enumerate(old) if n not in removed]
    left_new = [(n, item) for n, item in enumerate(new) if n not in added]
    assert len(left_old) == len(left_new)
    named = {int(row["path"].split("/")[2]) for row in rows if row["op"] == "replace"}
    for was, (n, now) in zip(left_old, left_new):
        assert equal(was, now) == (n not in named), (was, now, n)


def test_items_match_whatever_their_key_order_and_references() -> None:
    # a draft built in steps compares the stored file (keys as written) with a piece built
    # in memory (keys in the model's order, strings shared): the same entries must match
    book = [{"uid": n, "title": f"t{n}", "keys": [f"k{n}"], "on": n % 2 == 0} for n in range(12)]
    shared = book[3]["title"]
    reread = [json.loads(json.dumps(dict(reversed(list(entry.items()))))) for entry in book]
    kept = [entry for n, entry in enumerate(reread) if n not in (1, 4, 7, 10)]
    assert shared and [row["op"] for row in diff_json(book, kept, "/e")] == ["remove"] * 4
    assert [row["path"] for row in diff_json(book, kept, "/e")] == ["/e/1", "/e/4", "/e/7", "/e/10"]


@given(st.integers(2, 30), st.data())
def test_items_taken_out_anywhere_are_their_removes_alone(size, data) -> None:
    book = [{"uid": n} for n in range(size)]
    gone = data.draw(st.sets(st.integers(0, size - 1), min_size=1, max_size=size - 1))
    kept = [entry for n, entry in enumerate(book) if n not in gone]
    assert diff_json(book, kept, "/e") == [{"op": "remove", "path": f"/e/{n}", "before": book[n]} for n in sorted(gone)]
    put = data.draw(st.lists(st.integers(0, len(kept)), min_size=1, max_size=3))
    grown = list(kept)
    for at in sorted(put, reverse=True):
        grown.insert(at, {"new": at})
    assert [row["op"] for row in diff_json(kept, grown, "/e")] == ["add"] * len(put)


@given(values, values)
def test_every_change_points_at_the_values_it_names(a, b) -> None:
    for pointer, old, new in changes(a, b):
        assert old is MISSING or equal(resolve(a, pointer), old)
        assert new is MISSING or equal(resolve(b, pointer), new)
        assert not equal(old, new)


@given(values)
def test_equality_is_reflexive_and_survives_a_json_round_trip(a) -> None:
    assert equal(a, copy.deepcopy(a)) and same(a, a)
    assert equal(a, json.loads(json.dumps(a)))


@given(values, values)
def test_equality_is_symmetric(a, b) -> None:
    assert equal(a, b) == equal(b, a)


def _walk(before, after, pointer: str = ""):
    """`changes` without its shortcut past equal parts: every value walked, as the reference."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(before.keys() | after.keys()):
            old, new = before.get(key, MISSING), after.get(key, MISSING)
            if old is MISSING or new is MISSING:
                yield join(pointer, key), old, new
            else:
                yield from _walk(old, new, join(pointer, key))
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (old, new) in enumerate(zip(before, after)):
            yield from _walk(old, new, join(pointer, index))
    elif not equal(before, after):
        yield pointer, before, after


@st.composite
def _twin(draw, value):
    """`value` with some scalars swapped for ones Python finds equal (True for 1, 1.0 for 1)
    and some objects' keys reordered: what a walk past equal parts must not be fooled by."""
    if isinstance(value, dict):
        items = [(key, draw(_twin(item))) for key, item in value.items()]
        return dict(draw(st.permutations(items)) if draw(st.booleans()) else items)
    if isinstance(value, list):
        return [draw(_twin(item)) for item in value]
    if isinstance(value, bool) or value in (0, 1):
        return draw(st.sampled_from([value, int(value), float(value), bool(value)]))
    if isinstance(value, float) and value.is_integer():
        return draw(st.sampled_from([value, int(value)]))
    return value


@given(st.data())
def test_the_walk_past_equal_parts_finds_what_a_walk_of_every_value_finds(data) -> None:
    a = data.draw(values)
    b = data.draw(_twin(a))
    assert list(changes(a, b)) == list(_walk(a, b))
    assert list(changes({"x": [a, a]}, {"x": [a, b]})) == list(_walk({"x": [a, a]}, {"x": [a, b]}))


def test_true_inside_an_equal_looking_object_is_not_one() -> None:
    before = {"entries": [{"uid": 1, "on": True}, {"uid": 2, "on": [False, 0.0]}]}
    after = {"entries": [{"uid": 1, "on": 1}, {"uid": 2, "on": [0, 0]}]}
    assert before == after  # Python's view
    assert list(differences(before, after)) == ["/entries/0/on", "/entries/1/on/0"]


@given(_ID_ITEMS, _ID_ITEMS)
def test_rows_of_items_with_ids_replay_to_the_new_list(old, new) -> None:
    """Take out the removed items (old places), put the moved and added ones at their new places,
    fill the other places with the items left, in their old order, then apply the replaces:
    that is the new list, so every item is accounted for and a move is named once."""
    rows = aligned(draft_changes({"l": old}, {"l": new}, ""))
    if [row["path"] for row in rows] == ["/l"]:  # no id shared (or a list was empty): one replace
        assert rows[0]["op"] == "replace"
        return
    place = lambda pointer: int(pointer.split("/")[2])  # noqa: E731
    items = [row for row in rows if row["path"].count("/") == 2]
    removed = {place(row["path"]) for row in items if row["op"] == "remove"}
    moved = {place(row["from"]): place(row["path"]) for row in items if row["op"] == "move"}
    added = {place(row["path"]): row["after"] for row in items if row["op"] == "add"}
    left = iter([copy.deepcopy(item) for n, item in enumerate(old) if n not in removed and n not in moved])
    at = {now: copy.deepcopy(old[was]) for was, now in moved.items()}
    rebuilt = [added[n] if n in added else at[n] if n in at else next(left) for n in range(len(new))]
    assert next(left, None) is None
    for row in rows:
        if row["op"] == "replace" and row["path"].count("/") == 3:
            rebuilt[place(row["path"])][row["path"].rsplit("/", 1)[1]] = row["after"]
    assert rebuilt == new
    # an item is told by its id: an id replaced is a rename in place, to an id the old list lacked
    ids_old, ids_new = {repr(item["id"]) for item in old}, {repr(item["id"]) for item in new}
    for row in rows:
        if row["path"].endswith("/id"):
            assert len(old) == len(new) and repr(row["before"]) not in ids_new and repr(row["after"]) not in ids_old
