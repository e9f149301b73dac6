"""Search in scripts written without spaces between words: Chinese, Japanese, Korean, Thai."""

from __future__ import annotations

import json
import re
import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.query.index import _columns, _connect, _fields, _ready, parse_query
from bunzai.query.not_text import tree
from bunzai.query.search import SEGMENT_MARK, best_field, segmented, text_fields

CARDS = (
    {"name": "小红", "tags": ["奇幻"], "description": "她会使用魔法和剑，住在东京的森林里。"},
    {"name": "ゆき", "description": "彼女は魔法使いです。東京に住んでいる。"},
    {"name": "민지", "tags": ["판타지"], "description": "그녀는 마법을 배웠다. 서울에 산다."},
    {"name": "มาลี", "description": "สวัสดีค่ะ ฉันชื่อมาลี ฉันเป็นนักเวทมนตร์"},
    {"name": "Ada", "description": "A mathematician; no magic at all."},
)


def _ids(bunzai, *args):
    return [hit["id"] for hit in bunzai("search", *args, check=True).json["items"]]


def test_a_word_inside_a_run_of_cjk_is_found(bunzai):
    for card in CARDS:
        draft = bunzai("create", "character", "--input", json.dumps(card, ensure_ascii=False), check=True)
        bunzai("apply", "--yes", input=draft.stdout, check=True)
    ids = {item["name"]: item["id"] for item in bunzai("list", check=True).json["items"]}
    xiaohong, yuki, minji = ids["小红"], ids["ゆき"], ids["민지"]
    assert sorted(_ids(bunzai, "魔法")) == sorted([xiaohong, yuki])
    assert _ids(bunzai, "东京") == [xiaohong] and _ids(bunzai, "東京") == [yuki]
    assert _ids(bunzai, "魔法使い") == [yuki]
    assert _ids(bunzai, "마법") == [minji]  # a Korean stem with its ending joined on
    assert _ids(bunzai, "마법*") == [minji]
    assert _ids(bunzai, "판타지") == [minji] and _ids(bunzai, "奇幻") == [xiaohong]
    assert _ids(bunzai, '"魔法 和剑"') == [xiaohong]  # a phrase runs on across the space asked
    assert _ids(bunzai, "剑和魔法") == []  # the characters in their order, not any order
    assert _ids(bunzai, "魔法 森林") == [xiaohong]  # every word must appear
    hit = bunzai("search", "森林", check=True).json["items"][0]
    assert hit["pointer"] == "/body/description"
    assert hit["snippet"] == "她会使用魔法和剑，住在东京的森林里。"  # the text as written, without marks
    assert _ids(bunzai, "mathematician") == [ids["Ada"]]
    assert _ids(bunzai, "เวทมนตร์") == _ids(bunzai, "ชื่อ") == _ids(bunzai, "สวัสดี") == [ids["มาลี"]]


def test_the_name_still_counts_most_in_cjk(bunzai):
    for card in ({"name": "魔法", "description": "x"}, {"name": "Other", "description": "她会使用魔法和剑"}):
        draft = bunzai("create", "character", "--input", json.dumps(card, ensure_ascii=False), check=True)
        bunzai("apply", "--yes", input=draft.stdout, check=True)
    hits = bunzai("search", "魔法", check=True).json["items"]
    assert [hit["pointer"] for hit in hits] == ["/name", "/body/description"]


CJK = "魔法使東京森林彼女はのをにマホウ마법을서울판타지สวดคนมาล"
LATIN = "abcXYZ09"


def _index_one(text: str) -> sqlite3.Connection:
    connection = _connect(":memory:")
    _ready(connection)
    document = {"kind": "character", "id": "x", "name": "n", "body": {"description": text}}
    connection.execute(
        "INSERT INTO text (rowid, name, tags, short, prose, layout) VALUES (1, ?, ?, ?, ?, ?)",
        _columns("character", document),
    )
    return connection


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=CJK + LATIN + " 。、,.\n", min_size=1, max_size=40), st.data())
def test_any_run_of_cjk_in_a_text_finds_it(text, data):
    """A query of consecutive CJK characters taken from a text finds that text, wherever the
    run starts or ends (inside a longer run, beside Latin letters or digits)."""
    runs = [i for i, char in enumerate(text) if char in CJK]
    if not runs:
        return
    start = data.draw(st.sampled_from(runs))
    end = start
    while end < len(text) and text[end] in CJK and end - start < data.draw(st.integers(1, 4)):
        end += 1
    query = text[start:end]
    connection = _index_one(text)
    found = connection.execute("SELECT rowid FROM text WHERE text MATCH ?", (parse_query(query).match,)).fetchall()
    connection.close()
    assert found == [(1,)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=CJK + LATIN + " \n\x1f", max_size=20), min_size=1, max_size=4))
def test_marked_fields_are_cut_back_as_they_were(texts):
    """Fields held with marks come back out of the columns exactly, the mark itself
    included where a field held it (such a field is left unmarked)."""
    document = {"kind": "character", "id": "x", "name": texts[0], "body": {"tags": texts[1:], "description": texts[-1]}}
    connection = _index_one("")
    connection.execute(
        "INSERT INTO text (rowid, name, tags, short, prose, layout) VALUES (2, ?, ?, ?, ?, ?)",
        _columns("character", document),
    )
    stored = connection.execute("SELECT name, tags, short, prose, layout FROM text WHERE rowid = 2").fetchone()
    connection.close()
    assert _fields(*stored) == list(text_fields(document, "", tree("character")))


def _tokens(text: str) -> list[str]:
    return [token for token in re.split(r"[\W_]+", text) if token]


def test_what_is_segmented():
    assert segmented("plain ascii") is None
    assert segmented("Éloïse’s café") is None  # Latin with accents and curly quotes stays as it is
    assert segmented("She smiles 😊。") is None  # nor emoji or CJK punctuation alone
    assert _tokens(segmented("魔法")) == ["魔", "法"]
    assert _tokens(segmented("AI魔法3 ok")) == ["AI", "魔", "法", "3", "ok"]
    assert _tokens(segmented("ชื่อ")) == ["ช", "อ"]  # Thai vowel and tone marks part letters as unicode61 does
    assert segmented("魔" + SEGMENT_MARK + "法") is None  # a field holding the mark stays whole


def test_the_snippet_finds_a_cjk_word_inside_its_run():
    """The first pass of `best_field` counts a word where the index found it as one: inside
    a run of CJK it is, so the CJK field wins over a field holding only the Latin word."""
    fields = [("/body/a", "sword sword sword"), ("/body/b", "她会使用魔法和剑 sword")]
    assert best_field(fields, ["魔法", "sword"])[0] == "/body/b"


def test_the_snippet_shows_a_phrase_the_index_matched_across_punctuation(bunzai):
    """The index matches 魔法 in 魔，法 (punctuation parts no phrase of such characters); the hit
    names that field and shows it, not the first field of the piece."""
    card = {"name": "Lin", "creator": "someone", "description": "她会用魔，法。"}
    draft = bunzai("create", "character", "--input", json.dumps(card, ensure_ascii=False), check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    hit = bunzai("search", "魔法", check=True).json["items"][0]
    assert (hit["pointer"], hit["snippet"]) == ("/body/description", "她会用魔，法。")
