"""The docs search's word rule (bunzai/docs/bm25.py `words`): letters and digits of any script,
case and Latin accents folded, one rule for the index and the query, as `bunzai search`'s index
(FTS5 unicode61 and bunzai.query.search) splits and folds words."""

from __future__ import annotations

import json
import sqlite3
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunzai.cli.entry import run
from bunzai.docs import bm25
from bunzai.query.index import TOKENIZER
from bunzai.query.search import composed, segmented

# Characters whose case or canonical forms change their length or their letter: ß (upper SS), ı
# and İ (Turkish i), ΐ (its capital has no precomposed form), ǰ (upper J and a caron), ﬁ, final ς,
# ᾳ (upper ΑΙ), µ (folds to Greek μ), ŉ, a decomposed accent, CJK and Thai.
TRICKY = "ßıİΐǰﬁςᾳµŉé\u0301ÅΩ魔法ดาบ마법가ガ_"
WORDS = st.text(alphabet=st.one_of(st.sampled_from(TRICKY), st.characters()), max_size=12)


@given(st.lists(WORDS, max_size=6).map(" ".join))
def test_a_text_and_its_composed_decomposed_upper_and_lower_spellings_give_the_same_words(text):
    found = bm25.words(text)
    for spelling in (
        unicodedata.normalize("NFC", text),
        unicodedata.normalize("NFD", text),
        text.upper(),
        text.lower(),
        text.casefold(),
    ):
        assert bm25.words(spelling) == found, spelling
    assert bm25.terms(text.upper()) == bm25.terms(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("café", ["cafe"]),
        ("CAFÉ", ["cafe"]),
        (unicodedata.normalize("NFD", "Café NAÏVE"), ["cafe", "naive"]),
        ("Éloïse Ångström", ["eloise", "angstrom"]),
        ("Αθήνα", ["αθήνα"]),  # other scripts keep their accents, as in bunzai search
        ("Straße STRASSE", ["strasse", "strasse"]),
        ("ısparta ISPARTA İstanbul", ["isparta", "isparta", "istanbul"]),
        ("snake_case x² 12µs", ["snake", "case", "x²", "12μs"]),
        ("ẹ́x", ["ex"]),  # an accent with no composed form is dropped, not a break in the word
        ("她会使用魔法", ["她", "会", "使", "用", "魔", "法"]),  # each a word, as bunzai search indexes them
        ("ดาบx", ["ด", "า", "บ", "x"]),
        ("!!! — … 🦊", []),
    ],
)
def test_words(text, words):
    assert bm25.words(text) == words


def studio_tokens(text: str) -> list[str]:
    """The words `bunzai search`'s index keeps of `text`: its CJK parting, then FTS5's unicode61."""
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize = '{TOKENIZER}')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    text = composed(text)  # as the index holds it
    db.execute("INSERT INTO t VALUES (?)", (segmented(text) or text,))
    return [row[0] for row in db.execute("SELECT term FROM v ORDER BY offset")]


@pytest.mark.parametrize(
    "text",
    [
        "Export the café's menu, then {{random::café::thé}}",
        "Éloïse, ÉNGINE and Ångström; Αθήνα and αθηνα; snake_case 1990s",
        "她会使用魔法和剑 住在东京的森林里 私は剣を抜く 마법을 ฉันชักดาบออกมา",
        "Fullwidth ＡＢＣ１２３ and x² and Ⅻ",
        "Tiếng Việt, Nguyễn, ǖber; " + unicodedata.normalize("NFD", "Tiếng Việt, Αθήνα, ёлка, 한국어"),
    ],
)
def test_the_words_are_those_the_studio_index_keeps(text):
    assert bm25.words(text) == studio_tokens(text)


def search(capsys, *words: str) -> dict:
    assert run(["docs", "search", *words]) == 0
    return json.loads(capsys.readouterr().out)


def test_docs_search_cafe_finds_cafe_with_or_without_its_accent(capsys):
    accented = search(capsys, "café")
    assert accented["terms"] == ["cafe"]
    assert accented["count"] >= 1
    assert "café" in accented["items"][0]["snippet"]  # the snippet is cut where the folded word stands
    for spelling in ("cafe", "CAFÉ", unicodedata.normalize("NFD", "café")):
        assert search(capsys, spelling)["items"] == accented["items"], spelling


def test_docs_search_finds_a_word_of_cjk_characters(capsys):
    answer = search(capsys, "魔法")
    assert answer["terms"] == ["魔", "法"]
    assert answer["items"][0]["page"] == "commands/search"
    assert "魔法" in answer["items"][0]["snippet"]


def test_the_snippet_finds_a_word_the_search_folds_to_more_letters() -> None:
    # ß is ss to the search, but the studio's one-for-one fold keeps ß: the snippet began at the
    # chunk's top, far from the word it was found by
    from bunzai.docs.query import _snippet

    body = "Filler words here. " * 100 + "Die Straße ist lang. " + "More filler. " * 20
    snippet = _snippet(body, bm25.terms("STRASSE"))
    assert "Straße" in snippet and snippet.startswith("…")
