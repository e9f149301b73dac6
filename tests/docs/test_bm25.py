"""The docs search's own BM25 (bunzai/docs/bm25.py): terms, their remembered stems, ranking."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunzai.docs import bm25


def plain_terms(text: str) -> list[str]:
    """What `terms` gives, computed without its memory of stems."""
    return [bm25.stem(word) for word in bm25.words(text) if word not in bm25.STOP_WORDS]


@pytest.mark.parametrize(
    ("word", "stemmed"),
    [
        ("exports", "export"),
        ("entries", "entry"),
        ("classes", "class"),
        ("class", "class"),
        ("status", "status"),
        ("analysis", "analysis"),
        ("its", "its"),  # three letters or fewer stay
        ("1990s", "1990"),
        ("2000", "2000"),
    ],
)
def test_stem_brings_a_plural_to_its_base(word, stemmed):
    assert bm25.stem(word) == stemmed


@pytest.mark.parametrize(
    "forms",
    [
        ("export", "exports", "exported", "exporting"),  # "Exporting a library" answers "export"
        ("write", "writes", "writing"),  # the e a short stem keeps comes back after -ing
        ("create", "creates", "created", "creating"),
        ("include", "includes", "included"),
        ("hop", "hops", "hopping", "hopped"),  # a doubled consonant is undone
        ("agree", "agreed"),
        ("rename", "renamed", "renaming"),
        ("embed", "embeds", "embedded"),  # embed is not a past tense of "emb"
    ],
)
def test_stem_gives_a_word_and_its_verb_forms_one_base(forms):
    assert len({bm25.stem(word) for word in forms}) == 1, [bm25.stem(word) for word in forms]


@pytest.mark.parametrize("word", ["string", "thing", "need", "setting", "heading", "speed"])
def test_stem_leaves_words_that_only_look_like_verb_forms(word):
    assert bm25.stem(word) == word


WORDS = st.sampled_from(["Exports", "entries", "the", "class", "lorebooks", "a", "x1s", "Ünïcode", "ties", "cards"])
TEXTS = st.lists(st.one_of(WORDS, st.text(max_size=12)), max_size=30).map(" ".join)


@given(TEXTS)
def test_terms_are_the_stems_of_the_words_left_after_stop_words(text):
    assert bm25.terms(text) == plain_terms(text)


@given(st.lists(TEXTS, min_size=1, max_size=5))
def test_past_its_limit_the_memory_of_stems_stops_growing_and_terms_stay_right(texts):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bm25, "_STEMS", {})
        patch.setattr(bm25, "DOCS_STEM_MEMO_WORDS", 3)
        for text in texts:
            assert bm25.terms(text) == plain_terms(text)
        assert len(bm25._STEMS) <= 3


def test_a_document_holding_the_rarer_term_ranks_first_and_ties_keep_their_order():
    index = bm25.Index()
    first = index.add(Counter({"export": 1, "card": 1}))
    second = index.add(Counter({"card": 1, "lorebook": 1}))
    third = index.add(Counter({"card": 1, "lorebook": 1}))
    assert [doc for _, doc in index.rank(["lorebook", "export"])][0] == first  # in one document of three
    ranked = index.rank(["lorebook"])
    assert [doc for _, doc in ranked] == [second, third] and ranked[0][0] == ranked[1][0]
    assert index.rank(["nowhere"]) == []


BAGS = st.lists(
    st.dictionaries(
        st.sampled_from(["export", "card", "lorebook", "entry", "x1", "macro"]),
        st.one_of(st.integers(1, 40), st.floats(0.25, 9.5)),
        max_size=6,
    ).map(Counter),
    max_size=12,
)


def test_a_short_field_word_weighs_alike_on_a_long_and_a_short_document_and_a_body_word_does_not():
    index = bm25.Index()
    long_named = index.add(Counter({"filler": 400}), Counter({"export": 3}))
    short_named = index.add(Counter({"filler": 4}), Counter({"export": 3}))
    long_text = index.add(Counter({"filler": 400, "export": 1}))
    short_text = index.add(Counter({"filler": 4, "export": 1}))
    index.add(Counter({"other": 10}))
    scores = {doc: score for score, doc in index.rank(["export"])}
    assert scores[long_named] == scores[short_named] > scores[long_text]
    assert scores[short_text] > scores[long_text]


@given(
    BAGS,
    st.lists(BAGS.map(lambda bags: bags[0] if bags else None)),
    st.lists(st.lists(st.sampled_from(["export", "card", "lorebook", "entry", "x1", "nowhere"]))),
)
def test_a_stored_index_read_back_ranks_exactly_as_the_index_it_came_from(bags, fields, queries):
    index = bm25.Index()
    for number, bag in enumerate(bags):
        index.add(bag, fields[number] if number < len(fields) else None)
    stored = json.loads(json.dumps(index.stored()))  # as the catalog keeps it
    loaded = bm25.Index.from_stored(*stored)
    assert len(loaded) == len(index)
    for terms in queries:
        assert loaded.rank(terms) == index.rank(terms)
    assert list(loaded.stored()) == stored  # the same again, whether or not a query decoded a term
    loaded.add(Counter({"card": 2}))
    index.add(Counter({"card": 2}))
    assert loaded.rank(["card"]) == index.rank(["card"])
