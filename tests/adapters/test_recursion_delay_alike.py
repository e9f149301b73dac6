"""A delay until recursion of `true` is SillyTavern's level 1 (`=== true ? 1 : level`), and 0 is off,
so a writer that keeps only the flag loses nothing of those two: only a deeper level is a loss."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from bunzai.adapters.common.book_losses import alike_recursion_delays, delay_level


def book(*delays) -> dict:
    entries = [{"content": "x", "delay_until_recursion": delay} for delay in delays]
    return {"kind": "lorebook", "body": {"entries": entries}}


def card(*delays) -> dict:
    return {"kind": "character", "body": {"book": book(*delays)["body"]}}


@pytest.mark.parametrize(
    ("was", "now", "alike"),
    [
        (1, True, True),
        (True, 1, True),
        (0, False, True),
        (False, 0, True),
        (2, True, False),
        (1, False, False),
        (True, True, False),
        (2, 2, False),
    ],
)
def test_true_is_level_one_and_zero_is_off(was, now, alike):
    pointer = "/body/entries/0/delay_until_recursion"
    assert (pointer in alike_recursion_delays(book(was), book(now))) is alike
    assert (pointer.replace("/body/", "/body/book/") in alike_recursion_delays(card(was), card(now))) is alike


def test_pieces_of_two_kinds_share_nothing():
    assert alike_recursion_delays(book(1), card(True)) == set()


@given(st.one_of(st.booleans(), st.integers(0, 9)), st.one_of(st.booleans(), st.integers(0, 9)))
def test_only_values_at_one_level_and_spelled_otherwise_are_alike(was, now):
    found = alike_recursion_delays(book(was), book(now))
    spelled_otherwise = type(was) is not type(now) or was != now
    assert bool(found) is (spelled_otherwise and delay_level(was) == delay_level(now))
