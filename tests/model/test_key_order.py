"""The key order of an escrowed document, recorded beside its sorted copy and put back."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.validate import validate_piece
from bunzai.model.key_order import record, recorded_in, restore

# JSON whose objects hold their keys in any order (hypothesis draws dict keys in any order).
KEYS = st.text(alphabet="ab/~z0é", min_size=0, max_size=4)
SCALARS = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3)
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=25,
)


def sorted_copy(document):
    """What a piece file gives back: the same document, every object's keys sorted."""
    return json.loads(json.dumps(document, sort_keys=True))


def in_order(document) -> str:
    """The document's text in its own key order: equal texts, equal orders."""
    return json.dumps(document)


@settings(max_examples=400)
@given(DOCUMENTS)
def test_restore_gives_back_the_order_the_document_was_recorded_in(document) -> None:
    stored = sorted_copy(document)
    restore(stored, record(document))
    assert in_order(stored) == in_order(document)


@settings(max_examples=300)
@given(DOCUMENTS)
def test_a_record_names_only_objects_that_were_not_sorted(document) -> None:
    order = record(document)
    assert (order is None) == (in_order(document) == in_order(sorted_copy(document)))
    if order is not None:
        # Each distinct order is written once.
        assert len({tuple(keys) for keys in order["orders"]}) == len(order["orders"])


@settings(max_examples=300)
@given(DOCUMENTS)
def test_storing_a_sorted_copy_again_keeps_the_record_it_came_with(document) -> None:
    # The store's own raw copies (undo, revert) are sorted throughout: recording them again
    # with the record they were stored with must not forget the order.
    again = record(sorted_copy(document), kept=record(document))
    stored = sorted_copy(document)
    restore(stored, again)
    assert in_order(stored) == in_order(document)


@settings(max_examples=300)
@given(DOCUMENTS, DOCUMENTS)
def test_a_record_that_does_not_fit_changes_only_the_order(document, other) -> None:
    # A hand edit, or another document altogether: restoring never raises and never changes content.
    target = sorted_copy(other)
    restore(target, record(document))
    assert target == other


def test_a_damaged_record_is_passed_over() -> None:
    document = {"b": 1, "a": {"d": 2, "c": 3}}
    for damaged in (
        {"orders": [["b", "a"]], "objects": {"": 7}},  # no such order
        {"orders": "ba", "objects": {"": 0}},
        {"orders": [[1, 2]], "objects": {"": 0}},
        {"orders": [["b", "a"]], "objects": {"/nowhere": 0, "/a/c": 0}},  # names no object
        {"orders": [["b", "b"]], "objects": {"": 0}},  # a key twice, another not at all
        None,
        [],
    ):
        target = sorted_copy(document)
        restore(target, damaged)
        assert target == document


def test_an_order_far_longer_than_its_object_is_passed_over() -> None:
    # One long order named by every object would make restoring cost objects x keys.
    document = {str(n): {"b": n, "a": n} for n in range(50)}
    long_order = ["b", "a"] + [f"k{n}" for n in range(100)]
    restore(document, {"orders": [long_order], "objects": {f"/{n}": 0 for n in range(50)}})
    assert all(list(value) == ["b", "a"] for value in document.values())  # left as they were
    restore(document, {"orders": [["a", "b"] + long_order[2:20]], "objects": {"/0": 0}})
    assert list(document["0"]) == ["a", "b"]  # a few keys more than the object holds still fit


def test_keys_the_record_does_not_name_follow_in_their_own_order() -> None:
    target = {"a": 1, "b": 2, "new": 3, "z": 4}
    restore(target, {"orders": [["z", "gone", "b"]], "objects": {"": 0}})
    assert list(target) == ["z", "b", "a", "new"]


def test_pointers_escape_slash_and_tilde() -> None:
    document = {"a/b": {"y": 1, "x": 2}, "c~d": {"q": 1, "p": 2}}
    order = record(document)
    assert set(order["objects"]) == {"/a~1b", "/c~0d"}
    stored = sorted_copy(document)
    restore(stored, order)
    assert in_order(stored) == in_order(document)


def test_a_piece_read_back_from_its_file_has_its_escrow_in_the_order_it_was_read() -> None:
    document = {"spec": "x", "data": {"name": "Ada", "description": "d", "extensions": {"z": 1, "a": 2}}}
    piece = {
        "kind": "character",
        "id": "ada",
        "name": "Ada",
        "original": {"format": "ccv3.json", "document": document},
    }
    stored = sorted_copy(recorded_in(piece))
    assert "key_order" in stored["original"]
    read = validate_piece(stored)
    assert in_order(read.original.document) == in_order(document)
    assert read.original.key_order is None  # the document holds the order now
    assert "key_order" not in read.model_dump(mode="json")["original"]  # dumps leave it out


def test_a_piece_whose_document_is_sorted_is_stored_as_it_is() -> None:
    piece = {"kind": "character", "id": "ada", "name": "Ada", "original": {"format": "f", "document": {"a": 1}}}
    assert recorded_in(piece) is piece
    without = {"kind": "character", "id": "ada", "name": "Ada"}
    assert recorded_in(without) is without
