"""Canonical bytes and revisions (the bounded JSON parser is tests/test_jsondoc_reading.py)."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.errors import BunzaiError
from bunzai.store.canon import canonical_bytes, revision_of


def test_canonical_bytes_sort_keys_indent_two_and_end_with_newline() -> None:
    raw = canonical_bytes({"b": 1, "a": ["é", {"d": None, "c": True}]})
    assert raw == '{\n  "a": [\n    "é",\n    {\n      "c": true,\n      "d": null\n    }\n  ],\n  "b": 1\n}\n'.encode()


def test_revision_is_sha256_of_the_exact_bytes_so_whitespace_edits_count() -> None:
    raw = canonical_bytes({"a": 1})
    assert revision_of(raw) == hashlib.sha256(raw).hexdigest()
    assert revision_of(raw) != revision_of(raw.replace(b"  ", b"   "))


def test_canonical_bytes_refuses_what_json_cannot_hold() -> None:
    for bad in ({"x": float("nan")}, {"x": {1, 2}}, {"x": "\ud800"}):
        with pytest.raises(BunzaiError) as caught:
            canonical_bytes(bad)
        assert caught.value.code == "invalid_input"


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=12),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=6), children, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_canonical_bytes_are_json_dumps_sorted_and_indented_byte_for_byte(value) -> None:
    # A revision is the hash of these bytes: the hand-written formatter must not drift from
    # the standard library's output that the docstring promises.
    expected = json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    assert canonical_bytes(value) == expected.encode("utf-8")
