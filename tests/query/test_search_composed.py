"""`bunzai search` finds a word however its accents are encoded: composed (NFC) or decomposed
(NFD, as macOS and some editors write text), in the piece and in the query alike. FTS5's
unicode61 drops a decomposed accent but keeps a composed one (ά, ё, Vietnamese ế), so the index
and the query are both composed first; the snippet still shows the text as written."""

from __future__ import annotations

import json
import sqlite3
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.query.index import INDEX_NAME, _columns, _connect, _fields, _ready, parse_query, tokenizer
from bunzai.query.search import _snippet, best_field, composed, composed_places

# Words whose accents NFD and NFC spell differently, none folding to another: Greek (its
# accents are kept by the search), Cyrillic (й and ё are letters), Latin (accents folded),
# Vietnamese (two accents on one letter), Hangul (a syllable is three jamo decomposed), Yoruba
# and Japanese kana with a voicing mark
WORDS = (
    "Ἀθηνᾶ",
    "άλφα",
    "ψυχή",
    "Ωιδή",
    "йод",
    "Ёлка",
    "Éloïse",
    "naïve",
    "Ångström",
    "tiếng",
    "Việt",
    "Nguyễn",
    "người",
    "phở",
    "한국어를",
    "서울",
    "ガラス",
    "ǖber",
    "Ọ̀yọ́",
)
FORMS = st.sampled_from(("NFC", "NFD"))


def nf(form: str, text: str) -> str:
    return unicodedata.normalize(form, text)


# Between the words: plain text, or decomposed text of many characters (each composes to one
# fewer or two fewer), so that a place in the composed text is far from its place as written
FILLER = st.text(alphabet="abc xyz.,", max_size=80) | st.just(nf("NFD", "ḗ ṩ Ǻ ốc 강 ") * 8)


def _indexed(document: dict) -> sqlite3.Connection:
    connection = _connect(":memory:")
    _ready(connection)
    connection.execute(
        "INSERT INTO text (rowid, name, tags, short, prose, layout) VALUES (1, ?, ?, ?, ?, ?)",
        _columns("character", document),
    )
    return connection


@settings(max_examples=300, deadline=None)
@given(
    written=st.lists(
        st.tuples(st.sampled_from(WORDS), FORMS, FILLER), min_size=1, max_size=6, unique_by=lambda w: w[0]
    ),
    pick=st.integers(min_value=0),
    query_form=FORMS,
)
def test_a_word_is_found_and_shown_however_its_accents_are_encoded(written, pick, query_form):
    """A piece whose words are written composed or decomposed (each its own way) is found by
    each word typed either way, and the snippet is cut from the text as written, around the
    word as written there (positions before it shift when composed: a wrong place shows
    other text)."""
    text = "".join(filler + " " + nf(form, word) + " " for word, form, filler in written)
    document = {"kind": "character", "id": "x", "name": "x", "body": {"description": text}}
    connection = _indexed(document)
    word, form, _ = written[pick % len(written)]
    query = parse_query(nf(query_form, word))
    found = connection.execute("SELECT name, tags, short, prose, layout FROM text WHERE text MATCH ?", (query.match,))
    stored = found.fetchall()
    assert len(stored) == 1, (text, query.match)
    fields = _fields(*stored[0])
    assert dict(fields)["/body/description"] == text  # the text as written, not the composed copy
    pointer, snippet = best_field(fields, query.words)
    assert pointer == "/body/description"
    assert snippet.strip("…") in text
    assert nf(form, word) in snippet
    assert snippet == _snippet(text, text.index(nf(form, word)))  # cut around the word, where it stands


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.one_of(st.sampled_from("".join(WORDS) + "\u0301\u0323\u1161\u11a8"), st.characters())))
def test_each_composed_character_has_its_place_in_the_text_as_written(text):
    places = composed_places(text)
    assert len(places) == len(composed(text)) == len(nf("NFC", text))
    assert places == sorted(places) and all(0 <= place < len(text) for place in places)
    # each character composed is what the characters from its place to the next one's compose to
    ends = [*places[1:], len(text)]
    for at, (start, end) in enumerate(zip(places, ends)):
        if end > start:
            assert composed(text)[at] in nf("NFC", text[start:end])


def test_composed_is_the_text_itself_when_already_composed():
    for text in ("plain ascii", "café Αθήνα 魔法", ""):
        assert composed(text) is text
    assert composed(nf("NFD", "café")) == "café"


def test_search_finds_a_decomposed_piece_by_a_composed_query_and_back(bunzai):
    """End to end: pieces applied with decomposed and composed text (the files keep them as
    written), searched by `bunzai search` typed either way."""
    cards = (
        {
            "name": nf("NFD", "Ἀθηνᾶ"),
            "description": nf("NFD", "Говорит по-русски: йод и ёлка. Tiếng Việt. 한국어를 배운다."),
        },
        {"name": "Ёж", "description": "Composed: ψυχή, Nguyễn, 서울에 산다."},
    )
    for card in cards:
        draft = bunzai("create", "character", "--input", json.dumps(card, ensure_ascii=False), check=True)
        bunzai("apply", "--yes", input=draft.stdout, check=True)
    ids = {nf("NFC", item["name"]): item["id"] for item in bunzai("list", check=True).json["items"]}
    athena, hedgehog = ids["Ἀθηνᾶ"], ids["Ёж"]
    stored = json.loads((bunzai.studio / "character" / f"{athena}.json").read_text(encoding="utf-8"))
    assert stored["name"] == cards[0]["name"]  # the file keeps the text as written: decomposed

    def ids_of(query):
        return [hit["id"] for hit in bunzai("search", query, check=True).json["items"]]

    for form in ("NFC", "NFD"):
        assert ids_of(nf(form, "Ἀθηνᾶ")) == [athena]
        assert ids_of(nf(form, "ёлка")) == ids_of(nf(form, "ЙОД")) == [athena]
        assert ids_of(nf(form, "tiếng")) == ids_of(nf(form, "한국어")) == [athena]
        assert ids_of(nf(form, "ψυχή")) == ids_of(nf(form, "Nguyễn")) == ids_of(nf(form, "서울")) == [hedgehog]
    assert ids_of("nguyen") == [hedgehog] and ids_of("tieng viet") == [athena]  # Latin accents fold, two or one
    assert ids_of("αθηνα") == ids_of("елка") == []  # Greek and Cyrillic keep theirs, written either way
    hit = bunzai("search", "ёлка", check=True).json["items"][0]
    assert hit["pointer"] == "/body/description"
    assert hit["snippet"] == cards[0]["description"]  # as written, decomposed


def test_an_index_built_under_the_old_rule_is_built_again(bunzai):
    """An index of format 11 held decomposed text as FTS5 read it (its accents dropped): it is
    not read, but built again, and finds the decomposed piece by the composed word."""
    card = {"name": "Alpha", "description": nf("NFD", "άλφα")}
    draft = bunzai("create", "character", "--input", json.dumps(card, ensure_ascii=False), check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    assert bunzai("search", "άλφα", check=True).json["count"] == 1
    index = bunzai.studio / ".bunzai" / INDEX_NAME
    with sqlite3.connect(index) as connection:
        connection.execute("UPDATE meta SET value = '11' WHERE key = 'format'")
        connection.execute("DELETE FROM text")
    assert bunzai("search", "άλφα", check=True).json["count"] == 1
    with sqlite3.connect(index) as connection:
        assert connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()[0].startswith("12 ")


def test_an_older_sqlite_keeps_the_default_tokenizer():
    assert tokenizer("3.40.1") == tokenizer("3.27.0") == "unicode61 remove_diacritics 2"
    assert tokenizer("3.26.0") == tokenizer("3.9") == "unicode61"


def test_the_tokenizer_folds_as_the_snippet_folds():
    """unicode61 with `remove_diacritics 2` folds a Latin letter with two accents (ế is e), as
    `fold` does; the default kept them composed."""
    connection = sqlite3.connect(":memory:")
    connection.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize = '{tokenizer(sqlite3.sqlite_version)}')")
    connection.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')")
    connection.execute("INSERT INTO t VALUES ('tiếng Việt ǖber Αθήνα ёлка')")
    assert {row[0] for row in connection.execute("SELECT term FROM v")} == {"tieng", "viet", "uber", "αθήνα", "ёлка"}


def test_a_query_word_holds_the_accents_the_tokenizer_keeps_in_a_word():
    """unicode61 drops some combining accents inside a word (`a\\u0301b` is `ab`) and parts
    words at the others; a query word is cut the same way, so that an accent NFC leaves on its
    own (Yoruba ọ̀) does not part the word typed."""
    connection = sqlite3.connect(":memory:")
    connection.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize = '{tokenizer(sqlite3.sqlite_version)}')")
    connection.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    for code in range(0x300, 0x370):
        text = f"a{chr(code)}b"
        connection.execute("DELETE FROM t")
        connection.execute("INSERT INTO t VALUES (?)", (composed(text),))  # as the index holds it
        one_word = connection.execute("SELECT count(*) FROM v").fetchone()[0] == 1
        assert (len(parse_query(text).words) == 1) == one_word, hex(code)
    assert parse_query("ọ̀rọ̀ Ọ̀yọ́").words == ["o\u0300ro\u0300", "o\u0300yo\u0301"]


def test_the_hit_names_the_field_of_a_word_whose_accent_nfc_leaves_apart(tmp_path):
    """Yoruba's ọ̀ is ọ and a combining grave even composed: the index drops the grave (`oro`
    finds ọ̀rọ̀), and the hit names the field that holds it, its snippet there, not the first
    field of the piece for want of finding the word."""
    from bunzai.model import KIND_NAMES
    from bunzai.query.index import search_pieces
    from bunzai.store.studio import init_studio

    studio, _ = init_studio(tmp_path / "studio")
    description = "Filler. " * 12 + "Ọ̀rọ̀ àgbà ni. " + "More. " * 12
    piece = {"kind": "character", "id": "x", "name": "Ade", "body": {"creator": "me", "description": description}}
    (studio.root / "character" / "x.json").write_text(json.dumps(piece, ensure_ascii=False), encoding="utf-8")
    for query in ("oro", "ỌRỌ", "ọ̀rọ̀", nf("NFD", "Ọ̀rọ̀"), "ọ̀r*", "agba", "àgbà"):
        hits = search_pieces(studio, KIND_NAMES, query, 10)
        assert [(hit["id"], hit["pointer"]) for hit in hits] == [("x", "/body/description")], query
        assert "Ọ̀rọ̀ àgbà" in hits[0]["snippet"] and hits[0]["snippet"].startswith("…"), query
    assert search_pieces(studio, KIND_NAMES, "gba", 10) == []  # a word, not a part of one


def test_an_accent_before_a_word_joins_it_to_the_word_before():
    # unicode61 reads x, an accent and oro as one word, xoro: oro is not shown there
    fields = [("/a", "x\u0301oro"), ("/b", "ọ̀rọ̀"), ("/c", "oro")]
    assert best_field(fields, parse_query("oro").words) == ("/b", "ọ̀rọ̀")
    assert best_field(fields[::2], parse_query("ọ̀rọ̀").words) == ("/c", "oro")
