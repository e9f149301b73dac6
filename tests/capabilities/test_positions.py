"""Reordering list items by key: nothing lost or doubled, clear refusals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunzai.capabilities.common.positions import Reorder, reordered
from bunzai.errors import BunzaiError


def _items(keys: list) -> list[dict]:
    return [{"id": key, "n": n} for n, key in enumerate(keys)]


@given(st.lists(st.sampled_from(["a", "b", "c", 1]), max_size=8), st.randoms(use_true_random=False))
def test_a_full_order_is_a_permutation_even_with_repeated_keys(keys, rng):
    items = _items(keys)
    order = [item["id"] for item in items]
    rng.shuffle(order)
    result = reordered(items, "id", Reorder(order=order), "item")
    assert sorted(item["n"] for item in result) == list(range(len(items)))
    assert [item["id"] for item in result] == order


def test_repeated_keys_keep_their_own_order():
    items = _items(["a", "b", "a"])
    result = reordered(items, "id", Reorder(order=["b", "a", "a"]), "item")
    assert [item["n"] for item in result] == [1, 0, 2]


def test_an_order_that_names_a_repeated_key_too_few_times_is_refused():
    with pytest.raises(BunzaiError) as caught:
        reordered(_items(["a", "b", "a"]), "id", Reorder(order=["a", "b", "b"]), "item")
    assert caught.value.code == "invalid_input"
    assert "as many times as items have it" in caught.value.message


def test_moving_an_item_next_to_itself_says_so():
    with pytest.raises(BunzaiError) as caught:
        reordered(_items(["main", "nsfw"]), "id", Reorder(move="main", after="main"), "prompt")
    assert "itself" in caught.value.message
    assert caught.value.code == "invalid_input"
