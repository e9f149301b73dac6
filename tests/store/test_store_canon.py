"""Canonical bytes, revisions, and the bounded JSON parser shared with the CLI."""

from __future__ import annotations

import hashlib
import json

import pytest

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.store.canon import canonical_bytes, json_depth, load_json_bytes, revision_of


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


def test_load_refuses_ten_thousand_deep_json_without_recursion_error() -> None:
    for raw in (b"[" * 10_000 + b"]" * 10_000, b'{"a":' * 10_000 + b"1" + b"}" * 10_000, b"[" * 10_000):
        with pytest.raises(BunzaiError) as caught:
            load_json_bytes(raw, what="the draft")
        assert caught.value.code == "too_deep"
        assert "the draft" in caught.value.message


def test_load_accepts_nesting_up_to_the_limit() -> None:
    depth = limits.JSON_MAX_DEPTH
    assert load_json_bytes(b"[" * depth + b"]" * depth, what="x") is not None


def test_brackets_inside_strings_do_not_count_as_depth() -> None:
    text = json.dumps({"s": "[" * 10_000 + '\\"{' * 500, "t": ["]]]"]})
    assert json_depth(text.encode()) == 2
    assert load_json_bytes(text, what="x")["t"] == ["]]]"]


def test_load_refuses_input_over_the_size_limit() -> None:
    raw = b'"' + b"a" * limits.JSON_MAX_BYTES + b'"'
    with pytest.raises(BunzaiError) as caught:
        load_json_bytes(raw, what="the input")
    assert caught.value.code == "too_large"


@pytest.mark.parametrize(
    "raw",
    [b"{", b"", b'{"a": NaN}', b"[Infinity]", b"\xff\xfe", b'{"a": 1} x', b"1" * 5000],
)
def test_load_refuses_what_is_not_json_with_invalid_json(raw: bytes) -> None:
    with pytest.raises(BunzaiError) as caught:
        load_json_bytes(raw, what="the input")
    assert caught.value.code == "invalid_json"
    assert caught.value.message.startswith("the input")


def test_load_accepts_text_and_a_utf8_bom() -> None:
    assert load_json_bytes('{"a": "é"}', what="x") == {"a": "é"}
    assert load_json_bytes(b'\xef\xbb\xbf{"a": 1}', what="x") == {"a": 1}
