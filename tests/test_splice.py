"""bunzai.splice: where one file is another with a run of bytes put in."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunzai import splice
from bunzai.splice import insertion, part_spans


def _rebuilt(part: bytes, whole_size: int, at: int, whole: bytes) -> bytes:
    run = whole[at : at + whole_size - len(part)]
    return part[:at] + run + part[at:]


# The real step, and one so small that the walk over agreeing bytes runs many times.
STEPS = pytest.mark.parametrize("step", [64 * 1024, 3])


@contextmanager
def stepping(step: int) -> Iterator[None]:
    kept, splice._STEP = splice._STEP, step
    try:
        yield
    finally:
        splice._STEP = kept


@STEPS
@given(part=st.binary(max_size=300), run=st.binary(min_size=1, max_size=50), data=st.data())
def test_a_run_put_in_anywhere_is_found_and_rebuilds_the_file(step, part, run, data) -> None:
    where = data.draw(st.integers(0, len(part)))
    whole = part[:where] + run + part[where:]
    with stepping(step):
        at = insertion(whole, part)
    assert at is not None and _rebuilt(part, len(whole), at, whole) == whole
    spans = part_spans(len(whole), len(part), at)
    assert b"".join(whole[start:end] for start, end in spans) == part
    assert all(start < end for start, end in spans)


@STEPS
@given(whole=st.binary(max_size=300), part=st.binary(max_size=300))
def test_an_answer_for_any_two_files_rebuilds_the_first(step, whole, part) -> None:
    with stepping(step):
        at = insertion(whole, part)
    if at is not None:
        assert _rebuilt(part, len(whole), at, whole) == whole


@STEPS
def test_no_run_when_the_files_differ_elsewhere_or_the_first_is_not_longer(step) -> None:
    with stepping(step):
        assert insertion(b"abXcdZ", b"abcdY") is None
        assert insertion(b"abc", b"abc") is None
        assert insertion(b"ab", b"abc") is None
        assert insertion(b"run", b"") == 0
        assert insertion(b"abcXYZdef", b"abcdef") == 3


def test_the_largest_part_big_enough_is_the_one_named() -> None:
    from bunzai.splice import largest_insertion

    whole = b"head" + b"RUN" + b"tail-of-the-file"
    parts = {"small": b"tail-of-the-file", "large": b"head" + b"tail-of-the-file", "other": b"x" * 40}
    assert largest_insertion(whole, parts, 0) == ("large", 4)
    assert largest_insertion(whole, parts, 21) is None  # "large" is 20 bytes, "other" no part of it
    assert largest_insertion(whole, {"small": parts["small"]}, 0) == ("small", 0)
