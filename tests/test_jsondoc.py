"""One JSON equality and one walk, shared by the drafts' diff and the adapters' read-back."""

from __future__ import annotations

import copy
import json

from hypothesis import given, strategies as st

from bunzai.adapters.common.losses import differences as readback_differences, same
from bunzai.changes.diff import diff_json
from bunzai.jsondoc.values import MISSING, changes, differences, equal, join
from bunzai.query.pointer import resolve

scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-5, 5, allow_nan=False) | st.text(max_size=3)
keys = st.sampled_from(["a", "b", "x/y", "t~1", ""])
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3), max_leaves=12
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
    before = {"keep": 1, "gone": "x", "list": [1, 2], "a/b": {"c": 1}}
    after = {"keep": 1, "new": True, "list": [1, 2, 3], "a/b": {"c": 2}}
    assert diff_json(before, after) == [
        {"op": "replace", "path": "/a~1b/c", "before": 1, "after": 2},
        {"op": "remove", "path": "/gone", "before": "x"},
        {"op": "replace", "path": "/list", "before": [1, 2], "after": [1, 2, 3]},
        {"op": "add", "path": "/new", "after": True},
    ]


@given(values, values)
def test_no_change_exactly_when_equal(a, b) -> None:
    assert (list(differences(a, b)) == []) == equal(a, b)
    assert (diff_json(a, b) == []) == equal(a, b)


@given(values, values)
def test_the_diff_and_the_read_back_report_the_same_pointers(a, b) -> None:
    assert [row["path"] for row in diff_json(a, b, "/body")] == list(readback_differences(a, b, "/body"))


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
