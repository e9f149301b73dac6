"""`bunzai search` of a query that holds no word is refused, not answered "nothing matched".

A query of punctuation, symbols or emoji (or nothing) cannot match any piece, since only
letters and digits are indexed: `count: 0` would tell the user that no piece has a fox in its
name when the fox was never searched for.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("query", ["", "   ", "!!!", "🦊", "*", '"', "_", "__*", '"_"'])
def test_a_query_with_no_word_is_a_usage_error_with_a_hint(bunzai, query):
    bunzai("create", "character", "--input", '{"name": "🦊 Fox"}', check=True)
    done = bunzai("search", query)
    assert done.code == 2
    error = done.json["error"]
    assert error["code"] == "usage" and "holds no word to search for" in error["message"]
    assert "bunzai list" in error["hint"]


def test_a_word_beside_the_symbols_is_searched(bunzai):
    made = bunzai("create", "character", "--input", '{"name": "🦊 Fox"}', check=True).stdout
    bunzai("apply", "--yes", input=made, check=True)
    assert bunzai("search", "🦊 fox*", check=True).json["count"] == 1


def test_an_underscore_joins_words_as_the_index_splits_them(bunzai):
    made = bunzai("create", "character", "--input", '{"name": "Snake Case", "tagline": "snake_case"}', check=True)
    bunzai("apply", "--yes", input=made.stdout, check=True)
    assert bunzai("search", "snake_case", check=True).json["count"] == 1
    assert bunzai("search", "_case", check=True).json["count"] == 1
