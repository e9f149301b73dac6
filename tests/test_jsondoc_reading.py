"""The bounded JSON parser (bunzai.jsondoc.reading) shared by the store, the CLI and the adapters."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import json_depth, load_json_bytes, may_nest_past, parsed_depth, utf8_text


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


@given(boms=st.integers(0, 2), rest=st.binary(max_size=12))
def test_utf8_text_is_the_utf8_sig_codec(boms: int, rest: bytes) -> None:
    raw = b"\xef\xbb\xbf" * boms + rest
    try:
        expected = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        with pytest.raises(UnicodeDecodeError):
            utf8_text(raw)
    else:
        assert utf8_text(raw) == expected


def test_a_bad_byte_after_a_bom_is_placed_from_the_first_byte() -> None:
    with pytest.raises(BunzaiError, match="bad byte at offset 10"):
        load_json_bytes(b'\xef\xbb\xbf{"a": "\xff"}', what="x")


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(alphabet='[]{}"\\ab', max_size=6)),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet="[]{}ab", max_size=3), inner, max_size=3)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_the_depth_of_a_parse_is_the_depth_of_its_text(value) -> None:
    # Large documents are measured on their parse (parsed_depth), small ones never need it.
    assert parsed_depth(value) == json_depth(json.dumps(value).encode())


def test_a_deep_document_with_many_brackets_is_measured_on_its_parse() -> None:
    wide = [[index] for index in range(limits.JSON_MAX_DEPTH)]  # more brackets than the limit, depth 2
    assert load_json_bytes(json.dumps(wide).encode(), what="x") == wide
    depth = limits.JSON_MAX_DEPTH + 1
    for raw in (b"[" * depth + b"]" * depth, b"[" * depth + b"1," + b"]" * depth):  # valid, then broken
        with pytest.raises(BunzaiError) as caught:
            load_json_bytes(raw, what="x")
        assert caught.value.code == "too_deep" and f"nests {depth} levels" in caught.value.message


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([b"[", b"{", b"}", b"]", b"a" * 5_000, b'"x"', b"[" * 150]), max_size=60),
    st.sampled_from([0, 1, 199, 200, 201, 1_000]),
)
def test_may_nest_past_counts_brackets_as_one_pass_would(parts, limit):
    # Counted in stretches (16 KB, then doubling) that stop once past the limit: the same answer
    # as counting every bracket, for documents of one stretch and of many.
    raw = b"".join(parts)
    assert may_nest_past(raw, limit) == (raw.count(b"[") + raw.count(b"{") > limit)


@pytest.mark.parametrize("at", [0, 16_383, 16_384, 16_385, 49_151, 49_152, 114_688])
def test_a_bracket_on_a_stretch_boundary_is_counted(at):
    raw = b"a" * at + b"{" + b"a" * 100 + b"[" * 199  # 200 brackets, one of them at `at`
    assert may_nest_past(raw, 199) and not may_nest_past(raw, 200)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="[{}]a", max_size=300), st.integers(0, 300), st.integers(0, 300), st.sampled_from([0, 3, 50]))
def test_may_nest_past_counts_a_part_of_a_text_too(text, start, end, limit):
    # The draft stream asks about one document's part of its text, before encoding it.
    part = text[start:end]
    assert may_nest_past(text, limit, start, end) == (part.count("[") + part.count("{") > limit)


@pytest.mark.parametrize("tail", [b"", b"\\"])
def test_a_string_that_never_closes_runs_to_the_end_and_is_read_once(tail):
    # 200,000 escaped quotes after an opening one: read from each `\"` again, as the string
    # pattern used to be, this took hours; the brackets before the string still count
    raw = b"[" * 217 + b'"' + b'\\"' * 200_000 + tail
    assert json_depth(raw) == 217
    assert json_depth(b'[["a\\"]]') == 2  # an unterminated string hides the brackets after it
