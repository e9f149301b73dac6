"""The studio index: `list` and `search` answer from `.bunzai/index.sqlite`, kept true to the files."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.query.index import INDEX_NAME, list_pieces, parse_query, search_pieces
from bunzai.query.search import best_field, text_fields
from bunzai.store.studio import init_studio
from bunzai.model import KIND_NAMES

PIECES = (
    {"name": "Ada Lovelace", "tags": ["math"], "description": "Wrote the first program for the Analytical Engine."},
    {"name": "Charles Babbage", "description": "Designed the Analytical Engine; Lovelace wrote its first program."},
    {"name": "Mary Somerville", "tagline": "Queen of science", "description": "Translated Laplace."},
)


def fill(bunzai, pieces=PIECES):
    for piece in pieces:
        draft = bunzai("create", "character", "--input", json.dumps(piece), check=True)
        bunzai("apply", "--yes", input=draft.stdout, check=True)


def answers(bunzai):
    return [
        bunzai(*args).stdout
        for args in (
            ("list",),
            ("list", "--kind", "character"),
            ("search", "lovelace"),
            ("search", '"analytical engine"'),
            ("search", "lov*"),
            ("search", "science", "--kind", "character"),
            ("search", "nothing-here"),
        )
    ]


def test_deleting_the_index_changes_no_answer(bunzai):
    fill(bunzai)
    first = answers(bunzai)
    index = bunzai.studio / ".bunzai" / INDEX_NAME
    assert index.is_file()
    index.unlink()
    assert answers(bunzai) == first
    assert index.is_file()


def test_a_damaged_index_is_rebuilt(bunzai):
    fill(bunzai)
    first = answers(bunzai)
    index = bunzai.studio / ".bunzai" / INDEX_NAME
    index.write_bytes(b"this is not an SQLite database" * 100)
    assert answers(bunzai) == first
    with sqlite3.connect(index) as connection:
        assert connection.execute("SELECT count(*) FROM files").fetchone()[0] == len(PIECES)


def test_an_index_of_another_format_is_rebuilt(bunzai):
    fill(bunzai)
    first = answers(bunzai)
    index = bunzai.studio / ".bunzai" / INDEX_NAME
    with sqlite3.connect(index) as connection:
        connection.execute("UPDATE meta SET value = 'other' WHERE key = 'format'")
        connection.execute("DELETE FROM files")
    assert answers(bunzai) == first


def test_a_hand_edit_shows_up_in_the_next_search(bunzai):
    fill(bunzai)
    assert bunzai("search", "laplace", check=True).json["count"] == 1
    path = bunzai.studio / "character" / "mary-somerville.json"
    raw = path.read_bytes()
    path.write_bytes(raw.replace(b"Laplace", b"Lagrang"))  # same size, same second
    assert bunzai("search", "laplace", check=True).json["count"] == 0
    hits = bunzai("search", "lagrang", check=True).json["items"]
    assert [h["id"] for h in hits] == ["mary-somerville"]
    listed = bunzai("list", check=True).json["items"]
    read = bunzai("read", "character/mary-somerville", check=True).json
    assert [p["revision"] for p in listed if p["id"] == "mary-somerville"] == [read["revision"]]


def test_pieces_added_and_removed_by_hand_are_seen(bunzai):
    fill(bunzai)
    bunzai("list", check=True)
    (bunzai.studio / "character" / "ada-lovelace.json").unlink()
    copy = json.loads((bunzai.studio / "character" / "charles-babbage.json").read_text())
    copy["id"] = "babbage-2"
    (bunzai.studio / "character" / "babbage-2.json").write_text(json.dumps(copy))
    ids = [p["id"] for p in bunzai("list", check=True).json["items"]]
    assert ids == ["babbage-2", "charles-babbage", "mary-somerville"]
    assert {h["id"] for h in bunzai("search", "babbage", check=True).json["items"]} == {"babbage-2", "charles-babbage"}


def test_a_damaged_piece_is_listed_as_damaged_and_the_rest_keep_working(bunzai):
    fill(bunzai)
    bunzai("list", check=True)
    (bunzai.studio / "character" / "charles-babbage.json").write_text("{not json")
    listed = bunzai("list", check=True)
    assert [p["id"] for p in listed.json["items"]] == ["ada-lovelace", "mary-somerville"]
    assert [(d["kind"], d["id"], d["code"]) for d in listed.json["damaged"]] == [
        ("character", "charles-babbage", "invalid_piece")
    ]
    assert "damaged" in listed.stderr
    table = bunzai("list", "--table", check=True)  # a table prints the items alone: stderr names the rest
    assert "charles-babbage" not in table.stdout and "character/charles-babbage" in table.stderr
    assert bunzai("search", "somerville", check=True).json["count"] == 1
    assert bunzai("search", "babbage", check=True).json["count"] == 0
    assert bunzai("list", "--kind", "lorebook", check=True).json["count"] == 0


def test_search_ranks_the_name_first_and_filters_by_kind(bunzai):
    fill(bunzai)
    hits = bunzai("search", "lovelace", check=True).json["items"]
    assert [h["id"] for h in hits] == ["ada-lovelace", "charles-babbage"]
    assert hits[0]["pointer"] == "/name" and hits[1]["pointer"] == "/body/description"
    assert hits[0]["score"] > hits[1]["score"]
    assert bunzai("search", "lovelace", "--kind", "lorebook", check=True).json["count"] == 0


def test_phrase_and_prefix_queries(bunzai):
    fill(bunzai)
    assert bunzai("search", '"engine analytical"', check=True).json["count"] == 0
    assert bunzai("search", '"analytical engine"', check=True).json["count"] == 2
    assert bunzai("search", "somer", check=True).json["count"] == 0
    assert [h["id"] for h in bunzai("search", "somer*", check=True).json["items"]] == ["mary-somerville"]


def test_a_studio_without_a_state_folder_still_answers(tmp_path):
    studio, _ = init_studio(tmp_path / "studio")
    (studio.root / "character" / "ada.json").write_text(json.dumps({"kind": "character", "id": "ada", "name": "Ada"}))
    shutil.rmtree(studio.state_dir)
    assert [p["id"] for p in list_pieces(studio, KIND_NAMES)[0]] == ["ada"]
    assert [h["id"] for h in search_pieces(studio, KIND_NAMES, "ada", 10)] == ["ada"]
    assert not studio.state_dir.exists()


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_query_is_valid_fts5(query):
    parsed = parse_query(query)
    with sqlite3.connect(":memory:") as connection:
        connection.execute("CREATE VIRTUAL TABLE t USING fts5(a)")
        connection.execute("INSERT INTO t VALUES ('some text')")
        if parsed.match:
            connection.execute("SELECT * FROM t WHERE t MATCH ?", (parsed.match,)).fetchall()
        else:
            assert not any(ch.isalnum() for ch in query) or not parsed.words


def test_the_index_lists_exactly_the_files_the_store_lists(tmp_path):
    from bunzai.store.pieces import list_stored

    studio, _ = init_studio(tmp_path / "studio")
    folder = studio.root / "character"
    (folder / "ada.json").write_text(json.dumps({"kind": "character", "id": "ada", "name": "Ada"}))
    for odd in (".ada.json", "Bad Name.json", ".ada.json.123-abc.tmp", "notes.txt", "UPPER.json"):
        (folder / odd).write_text(json.dumps({"kind": "character", "id": "ada", "name": "Ada"}))
    (folder / "linked.json").symlink_to(folder / "ada.json")
    (folder / "folder.json").mkdir()
    expected = [{"kind": k, "id": i} for k, i in list_stored(studio)]
    assert [{"kind": p["kind"], "id": p["id"]} for p in list_pieces(studio, KIND_NAMES)[0]] == expected
    assert [h["id"] for h in search_pieces(studio, KIND_NAMES, "ada", 10)] == ["ada"]


def test_a_name_that_is_not_a_string_is_listed_as_stored(tmp_path):
    studio, _ = init_studio(tmp_path / "studio")
    for piece_id, name in (("a", 7), ("b", None), ("c", ["x"])):
        piece = {"kind": "persona", "id": piece_id} | ({} if name is None else {"name": name})
        (studio.root / "persona" / f"{piece_id}.json").write_text(json.dumps(piece))
    assert [p["name"] for p in list_pieces(studio, KIND_NAMES)[0]] == [7, None, ["x"]]


def test_an_index_with_a_wrong_schema_is_rebuilt(bunzai):
    fill(bunzai)
    first = answers(bunzai)
    index = bunzai.studio / ".bunzai" / INDEX_NAME
    with sqlite3.connect(index) as connection:
        connection.execute("ALTER TABLE files RENAME COLUMN name_json TO something_else")
    assert answers(bunzai) == first


def test_the_kept_row_text_is_what_list_would_print(tmp_path):
    from bunzai.cli.output import to_text
    from bunzai.query.index import listed_pieces

    studio, _ = init_studio(tmp_path / "studio")
    names = (("a", 7), ("b", None), ("c", ["x", {"y": 1.5}]), ("d", "Élodie \u2603 \U0001f600"), ("e", 'q"uote\\n\n'))
    for piece_id, name in names:
        piece = {"kind": "persona", "id": piece_id} | ({} if name is None else {"name": name})
        (studio.root / "persona" / f"{piece_id}.json").write_text(json.dumps(piece))
    (studio.root / "character" / "broken.json").write_text("{not json")
    rows, damaged = list_pieces(studio, KIND_NAMES)
    listed, damaged_again = listed_pieces(studio, KIND_NAMES)
    assert damaged_again == damaged and len(damaged) == 1
    assert "[" + ",".join(listed) + "]" == to_text(rows, pretty=False)
    for kinds in (("persona",), ("character",)):
        assert "[" + ",".join(listed_pieces(studio, kinds)[0]) + "]" == to_text(
            list_pieces(studio, kinds)[0], pretty=False
        )


def test_a_hand_edit_keeping_size_and_listing_order_is_noticed(tmp_path):
    studio, _ = init_studio(tmp_path / "studio")
    path = studio.root / "character" / "ada.json"
    path.write_text(json.dumps({"kind": "character", "id": "ada", "name": "Ada", "body": {"description": "alpha"}}))
    os.utime(path, ns=(10**18, 10**18))  # long settled: the kept listing is trusted as it is
    assert search_pieces(studio, KIND_NAMES, "alpha", 10)[0]["id"] == "ada"
    assert search_pieces(studio, KIND_NAMES, "alpha", 10)[0]["id"] == "ada"
    path.write_text(path.read_text().replace("alpha", "omega"))  # same size, same folder listing order
    os.utime(path, ns=(10**18 + 1, 10**18 + 1))
    assert search_pieces(studio, KIND_NAMES, "alpha", 10) == []
    assert search_pieces(studio, KIND_NAMES, "omega", 10)[0]["id"] == "ada"


def test_the_index_names_piece_files_as_the_store_does():
    from bunzai.query import index
    from bunzai.store import pieces

    assert index.PIECE_SUFFIX == pieces.PIECE_SUFFIX


def test_the_index_lies_in_the_studio_state_folder(tmp_path):
    from bunzai.query import index

    studio, _ = init_studio(tmp_path / "studio")
    assert index._index_path(studio) == str(studio.state_dir / INDEX_NAME)


def test_the_scan_by_descriptor_and_by_path_agree(tmp_path, monkeypatch):
    from bunzai.query import index
    from bunzai.store.pieces import list_stored

    studio, _ = init_studio(tmp_path / "studio")
    for n in range(3):
        (studio.root / "character" / f"c{n}.json").write_text(
            json.dumps({"kind": "character", "id": f"c{n}", "name": "C"})
        )
    shutil.rmtree(studio.root / "lorebook")  # a kind folder gone
    (studio.root / "lorebook").write_text("not a folder")  # and in its place a file
    shutil.rmtree(studio.root / "persona")
    by_descriptor = index._scan(studio, KIND_NAMES)
    monkeypatch.setattr(index, "_BY_DESCRIPTOR", False)
    assert index._scan(studio, KIND_NAMES) == by_descriptor
    assert sorted(index._stats(by_descriptor["character"])) == ["c0", "c1", "c2"]
    assert by_descriptor["lorebook"] == by_descriptor["persona"] == []
    assert [p["id"] for p in list_pieces(studio, KIND_NAMES)[0]] == [i for _, i in list_stored(studio)]


def test_the_scan_is_bounded_by_the_walk_limit_across_kinds(tmp_path, monkeypatch):
    import pytest

    from bunzai import limits
    from bunzai.errors import BunzaiError

    studio, _ = init_studio(tmp_path / "studio")
    for kind, n in (("character", 0), ("character", 1), ("persona", 2)):
        (studio.root / kind / f"p{n}.json").write_text(json.dumps({"kind": kind, "id": f"p{n}", "name": "P"}))
    monkeypatch.setattr(limits, "WALK_MAX_ENTRIES", 3)
    assert len(list_pieces(studio, KIND_NAMES)[0]) == 3  # three entries: at the limit, not past it
    (studio.root / "persona" / "notes.txt").write_text("a file that is not a piece still counts")
    with pytest.raises(BunzaiError) as caught:
        list_pieces(studio, KIND_NAMES)
    assert caught.value.code == "too_large"


# A tiny vocabulary, so that pieces tie on score (as copies of one card do in a library).
_VOCABULARY = ("ember", "frost", "ember frost", "frost ember ember", "tide")
_ROUND = st.lists(
    st.tuples(
        st.sampled_from(("character", "persona")),
        st.from_regex(r"[a-f]{1,2}", fullmatch=True),
        st.sampled_from(_VOCABULARY),
    ),
    max_size=12,
)


@settings(max_examples=80, deadline=None)
@given(
    rounds=st.lists(_ROUND, min_size=1, max_size=3),
    query=st.sampled_from(("ember", "frost", "ember frost", '"ember frost"', "fr*", "tide")),
    limit=st.integers(1, 6),
    room=st.integers(0, 4),
)
def test_ranking_without_the_join_keeps_the_joined_order(tmp_path_factory, rounds, query, limit, room):
    """A whole-studio search ranks by FTS5 alone and joins only the rows that can be kept; its
    hits are those of the query that joins every match (ties broken by kind, then id), whatever
    order the pieces were indexed in and however far a tie runs past the room fetched for it."""
    from unittest import mock

    from bunzai.query import index
    from bunzai.query.index import _fields, fresh_index, ranked_joined

    studio, _ = init_studio(tmp_path_factory.mktemp("ranking") / "studio")
    with mock.patch.object(index, "TIE_ROOM", room):
        for pieces in rounds:  # each round is indexed before the next writes: rowids follow no order
            for kind, piece_id, text in pieces:
                piece = {"kind": kind, "id": piece_id, "name": piece_id, "body": {"description": text}}
                (studio.root / kind / f"{piece_id}.json").write_text(json.dumps(piece))
            found = search_pieces(studio, KIND_NAMES, query, limit)
    connection = fresh_index(studio, KIND_NAMES)
    joined = ranked_joined(connection, KIND_NAMES, parse_query(query).match, limit)
    connection.close()
    assert [(h["kind"], h["id"], h["score"], h["snippet"]) for h in found] == [
        (k, i, round(s, 6), best_field(_fields(*text), parse_query(query).words)[1]) for k, i, _, _, s, *text in joined
    ]


def test_short_prefixes_read_the_prefix_indexes_and_count_characters(tmp_path):
    """Prefixes of 2 and 3 characters have an FTS5 index of their own; their length is in
    characters, so a prefix in any script finds the words it starts, as a longer one does
    (diacritics folded, as the tokenizer folds them in every query)."""
    studio, _ = init_studio(tmp_path / "studio")
    for piece_id, name in (("a", "Élodie"), ("b", "Éloïse"), ("c", "雪乃ゆき"), ("d", "Elo")):
        piece = {"kind": "character", "id": piece_id, "name": name}
        (studio.root / "character" / f"{piece_id}.json").write_text(json.dumps(piece))
    assert sorted(h["id"] for h in search_pieces(studio, KIND_NAMES, "él*", 10)) == ["a", "b", "d"]
    assert sorted(h["id"] for h in search_pieces(studio, KIND_NAMES, "elo*", 10)) == ["a", "b", "d"]
    assert sorted(h["id"] for h in search_pieces(studio, KIND_NAMES, "éloï*", 10)) == ["b"]
    assert sorted(h["id"] for h in search_pieces(studio, KIND_NAMES, "雪乃*", 10)) == ["c"]
    with sqlite3.connect(studio.state_dir / INDEX_NAME) as connection:
        (sql,) = connection.execute("SELECT sql FROM sqlite_master WHERE name = 'text'").fetchone()
    assert "prefix = '2 3'" in sql


_OPERATION = st.one_of(
    st.tuples(
        st.just("write"),
        st.sampled_from(("character", "persona")),
        st.sampled_from("abcd"),
        st.sampled_from(("ember", "frost", "tide ember")),
    ),
    st.tuples(st.just("remove"), st.sampled_from(("character", "persona")), st.sampled_from("abcd"), st.none()),
    st.tuples(st.just("touch"), st.sampled_from(("character", "persona")), st.sampled_from("abcd"), st.none()),
    st.tuples(st.just("damage"), st.sampled_from(("character", "persona")), st.sampled_from("abcd"), st.none()),
    st.tuples(
        st.just("junk"),
        st.sampled_from(("character", "persona")),
        st.sampled_from(("Bad Name", ".hidden", "x.json.1-a.tmp")),
        st.none(),
    ),
)


class _LaterClock:
    """`time` for the index module, 100 s ahead: every file written here is long settled."""

    @staticmethod
    def time_ns() -> int:
        import time

        return time.time_ns() + 100 * 10**9


@settings(max_examples=40, deadline=None)
@given(batches=st.lists(st.lists(_OPERATION, min_size=1, max_size=4), min_size=1, max_size=6))
def test_a_stale_kind_looks_only_at_what_changed_and_answers_as_a_rebuild(tmp_path_factory, batches):
    """After any run of writes, edits, removals, touches, damage and stray files (a batch of
    them between two answers), the index brought up to date by looking only at the rows whose
    files changed since the kind was last listed answers `list` and `search` as one built
    afresh from the files does."""
    from unittest import mock

    from bunzai.query import index

    studio, _ = init_studio(tmp_path_factory.mktemp("stale") / "studio")
    path_of = studio.state_dir / INDEX_NAME

    def answers():
        return list_pieces(studio, KIND_NAMES), [
            search_pieces(studio, KIND_NAMES, w, 10) for w in ("ember", "frost", "tide")
        ]

    step = 0
    with mock.patch.object(index, "time", _LaterClock), mock.patch.object(index, "LOOK_SHARE", 1.0):
        for batch in batches:
            for operation, kind, name, word in batch:
                step += 1
                path = studio.root / kind / f"{name}.json"
                if operation == "write":
                    path.write_text(json.dumps({"kind": kind, "id": name, "name": name, "body": {"description": word}}))
                elif operation == "remove" and path.exists():
                    path.unlink()
                elif operation == "damage":
                    path.write_text('{"kind": "' + kind)
                elif operation == "junk":
                    path.write_text("{}")
                if path.exists():  # a time of its own: same size and tick can never hide a change here
                    os.utime(path, ns=(10**18 + step, 10**18 + step))
            kept = answers()
            path_of.rename(path_of.with_name("kept.sqlite"))
            rebuilt = answers()
            path_of.unlink()
            path_of.with_name("kept.sqlite").rename(path_of)
            assert kept == rebuilt


def test_what_a_stale_kind_looks_at():
    from bunzai.query.index import _to_look_at

    settled = 98 * 10**9  # the file system's clock when that listing was taken
    old = (1, 10, 50 * 10**9, 50 * 10**9)
    others = {f"other{n}": old for n in range(20)}
    tick = (2, 10, 98 * 10**9, 98 * 10**9)
    before = {"same": old, "moved": old, "gone": old, "young": (2, 10, 99 * 10**9, 99 * 10**9), "tick": tick}
    before |= others
    stats = {
        "same": old,
        "moved": (1, 11, 50 * 10**9, 50 * 10**9),
        "young": (2, 10, 99 * 10**9, 99 * 10**9),  # unchanged, but changed after that listing's clock
        "tick": tick,  # and in the same tick: a change after the read could have kept this stat
        "new": old,
        "recent": (3, 10, 50 * 10**9, 99 * 10**9),  # its ctime is: a change kept the mtime
    } | others
    before["recent"] = stats["recent"]
    assert sorted(_to_look_at(stats, settled, before)) == ["gone", "moved", "new", "recent", "tick", "young"]
    assert _to_look_at(stats, settled, None) is None
    assert _to_look_at({"a": old}, settled, {"b": old}) is None  # most rows: read them all


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.binary(min_size=1).filter(lambda name: b"\0" not in name).map(os.fsdecode),  # as scandir names files
        st.tuples(*[st.integers(-(2**63), 2**63 - 1)] * 4),
        max_size=8,
    )
)
def test_a_listing_packs_and_unpacks(stats):
    from bunzai.query.index import _packed, _unpacked

    assert _unpacked(_packed(stats)) == stats


@given(st.binary(max_size=64))
def test_any_bytes_unpack_to_a_listing_or_none(blob):
    from bunzai.query.index import _unpacked

    unpacked = _unpacked(blob)
    assert unpacked is None or all(isinstance(v, tuple) and len(v) == 4 for v in unpacked.values())


def test_a_listing_that_cannot_pack_does_not_unpack():
    from bunzai.query.index import _packed, _unpacked

    assert _unpacked(_packed({"a": (2**64, 1, 2, 3)})) is None
    assert _unpacked(_packed({"\ud800": (0, 1, 2, 3)})) is None


def test_words_fold_as_the_tokenizer_folds_them_and_the_snippet_follows(tmp_path):
    """A word reaches FTS5 as typed and is folded there as the text was (so `ß` matches `ß`,
    which `casefold` would have made `ss`); the snippet's field is found with the same fold,
    so a match that only folding makes still names the field that holds it."""
    studio, _ = init_studio(tmp_path / "studio")
    pieces = (
        ("a", "Éloïse Straße", "Lives on the Hauptstraße of Köln, by the café."),
        ("b", "Αθήνα", "Ёлка"),
        ("c", "İstanbul", "x"),
    )
    for piece_id, name, description in pieces:
        piece = {
            "kind": "character",
            "id": piece_id,
            "name": name,
            "body": {"creator": "me", "description": description},
        }
        (studio.root / "character" / f"{piece_id}.json").write_text(json.dumps(piece))

    def hits(query):
        return [(h["id"], h["pointer"]) for h in search_pieces(studio, KIND_NAMES, query, 10)]

    assert hits("eloise") == hits("ELOÏSE") == [("a", "/name")]
    assert hits("Hauptstraße") == hits("hauptstraße") == hits("koln") == hits("CAFE") == [("a", "/body/description")]
    assert hits("straß*") == [("a", "/name")]
    assert hits("istanbul") == [("c", "/name")]
    assert hits("Αθήνα") == [("b", "/name")] and hits("ёлка") == [("b", "/body/description")]
    assert hits("αθηνα") == []  # the tokenizer folds no Greek accent
    assert parse_query("Hauptstraße ELOÏSE").words == ["hauptstraße", "eloise"]


@given(st.text(max_size=40))
def test_a_fold_keeps_every_position(text):
    from bunzai.query.search import fold

    folded = fold(text)
    assert len(folded) == len(text)
    assert fold(folded) == folded


_JSON_LEAF = st.one_of(st.text(), st.integers(), st.booleans(), st.none())
_PIECE_BODY = st.recursive(
    _JSON_LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=20,
)


@given(name=st.text(), tags=st.lists(st.text(), max_size=3), body=_PIECE_BODY)
def test_a_pieces_text_is_stored_once_and_cut_back_into_its_fields(name, tags, body):
    """The text table keeps each field once, joined by column (newlines, NULs and any
    character within a field included); the hit's fields, cut back out of what SQLite
    returns, are the document's text fields in its order."""
    from bunzai.query.index import _columns, _connect, _fields, _ready
    from bunzai.query.not_text import tree

    document = {"kind": "character", "id": "x", "name": name, "body": {"tags": tags, "title": name, "other": body}}
    connection = _connect(":memory:")
    _ready(connection)
    connection.execute(
        "INSERT INTO text (rowid, name, tags, short, prose, layout) VALUES (1, ?, ?, ?, ?, ?)",
        _columns("character", document),
    )
    stored = connection.execute("SELECT name, tags, short, prose, layout FROM text WHERE rowid = 1").fetchone()
    connection.close()
    assert _fields(*stored) == list(text_fields(document, "", tree("character")))


def test_settings_are_not_searched_and_text_is(tmp_path):
    """Values from a closed set that most pieces hold (a role, a rating, a kind), a stored
    file's hash, extension and MIME type: searched, `user` would match every preset and `png`
    every portrait. Text beside them is searched, and so is an object that only looks like a
    stored file's reference."""
    studio, _ = init_studio(tmp_path / "studio")
    image = {"sha256": "ab" * 32, "ext": "png", "mime": "image/png"}
    pieces = (
        {
            "kind": "character",
            "id": "ada",
            "name": "Ada",
            "body": {
                "rating": "nsfw",
                "portrait": image,
                "depth_prompt": {"role": "system", "text": "Keep the system of the world."},
                "extensions": {"x": {"sha256": "none", "note": "a png sketch"}, "y": {"sha256": "seal"}},
            },
        },
        {
            "kind": "preset",
            "id": "p",
            "name": "Plain",
            "body": {
                "family": "chat_completion",
                "prompts": [{"role": "user", "content": "Hello there."}],
                "attachments": [{"mime": "image/png", "asset": image}],
            },
        },
        {
            "kind": "pack",
            "id": "k",
            "name": "Sprites",
            "body": {"items": [{"name": "joy", "mime": "image/png", "asset": image}]},
        },
    )
    for piece in pieces:
        (studio.root / piece["kind"] / f"{piece['id']}.json").write_text(json.dumps(piece))

    def found(query):
        return [(h["id"], h["pointer"]) for h in search_pieces(studio, KIND_NAMES, query, 10)]

    for word in ("character", "preset", "nsfw", "user", "chat_completion", "image", "ab" * 32):
        assert found(word) == [], word
    assert found("png") == [("ada", "/body/extensions/x/note")]
    assert found("system") == [("ada", "/body/depth_prompt/text")]
    assert found("seal") == [("ada", "/body/extensions/y/sha256")]
    assert found("hello") == [("p", "/body/prompts/0/content")]
    assert found("joy") == [("k", "/body/items/0/name")]


def test_the_table_of_settings_is_the_models():
    from bunzai.query.not_text import main

    assert main(["--check"]) == 0, "run `make hot`"


def test_which_fields_of_a_model_are_not_text():
    """A `Literal` (alone, in a list or a map), a stored file's reference and a `mime` are
    settings; a `Literal` that may also be any string is text, as is every other string."""
    from typing import Literal

    from pydantic import BaseModel

    from bunzai.model.base import AssetRef
    from bunzai.query.not_text import _not_text, _tree

    class Inner(BaseModel):
        mime: str = ""
        note: str = ""

    class Outer(BaseModel):
        a: Literal["x"] = "x"
        b: Literal["x"] | str = "x"
        c: list[Literal["y"]] = []
        d: dict[str, Literal["z"]] = {}
        e: AssetRef | None = None
        f: list[Inner] = []
        g: str = ""

    pointers = _not_text(Outer, "", ())
    assert pointers == ["/a", "/c/*", "/d/*", "/e", "/f/*/mime"]
    assert _tree(pointers) == {"a": True, "c": {"*": True}, "d": {"*": True}, "e": True, "f": {"*": {"mime": True}}}


def test_a_snippet_is_one_line_whatever_the_line_endings():
    text = "line one\r\nline two\rthree\nfour"
    assert best_field([["/body/description", text]], ["two"]) == ("/body/description", "line one line two three four")


def test_the_snippet_shows_a_word_where_it_stands_as_a_word():
    """The field shown is one where a word of the query is a word (a prefix starts one), as
    FTS5 matched it; where none is, any field holding it as letters is shown."""
    fields = [["/name", "Charles Babbage"], ["/body/description", "Concatenate; Lovelace and the cat"]]
    assert parse_query('lo* "a b" cat').words == ["lo*", "a", "b", "cat"]
    assert best_field(fields, ["l*"]) == ("/body/description", "Concatenate; Lovelace and the cat")
    assert best_field(fields, ["cat"]) == ("/body/description", "Concatenate; Lovelace and the cat")
    assert best_field(fields, ["arles"]) == ("/name", "Charles Babbage")
    assert best_field(fields, ["zebra"]) == ("/name", "Charles Babbage")


def _reads_of(studio, monkeypatch) -> list[str]:
    """The pieces each `list_pieces` of `studio` reads from now on (the index's own reader spied)."""
    from bunzai.query import index

    reads: list[str] = []
    real = index._read_row

    def spy(studio, kind, piece_id):
        reads.append(f"{kind}/{piece_id}")
        return real(studio, kind, piece_id)

    monkeypatch.setattr(index, "_read_row", spy)
    return reads


def test_pieces_written_before_a_reader_are_trusted_by_it_and_not_read_again(tmp_path, monkeypatch):
    """The index's clock is the file system's: pieces changed a tick or more before a reader
    looked are settled when it reads them, so the next reader reads none of them again (with
    a wall-clock margin it would have read every one a second time)."""
    import time

    studio, _ = init_studio(tmp_path / "studio")
    for n in range(30):
        path = studio.root / "character" / f"c{n}.json"
        path.write_text(json.dumps({"kind": "character", "id": f"c{n}", "name": f"C{n}", "body": {}}))
    time.sleep(0.05)  # past the file system clock's tick (a few milliseconds) of the last write
    reads = _reads_of(studio, monkeypatch)
    first = list_pieces(studio, KIND_NAMES)
    assert sorted(reads) == sorted(f"character/c{n}" for n in range(30))
    reads.clear()
    assert list_pieces(studio, KIND_NAMES) == first and len(first[0]) == 30 and reads == []
    settled = sqlite3.connect(studio.state_dir / INDEX_NAME).execute("SELECT settled_ns FROM listings").fetchall()
    newest = max(max(path.stat().st_mtime_ns, path.stat().st_ctime_ns) for path in studio.root.glob("character/*"))
    assert newest < settled[0][0] <= os.stat(studio.state_dir / INDEX_NAME).st_mtime_ns  # its own file's clock


def test_a_piece_changed_in_the_tick_a_reader_read_it_is_read_again_by_the_next(tmp_path, monkeypatch):
    """A piece whose mtime or ctime is not before the index's clock may have changed after it
    was read, in the same tick, keeping its stat: the next reader reads it again, and once
    it is older than a reader's clock, no reader reads it."""
    from bunzai.query import index

    studio, _ = init_studio(tmp_path / "studio")
    path = studio.root / "character" / "ada.json"
    path.write_text(json.dumps({"kind": "character", "id": "ada", "name": "Ada", "body": {}}))
    stat = os.stat(path)
    tick = max(stat.st_mtime_ns, stat.st_ctime_ns)
    reads = _reads_of(studio, monkeypatch)
    for clock, read in ((tick, ["character/ada"]), (tick, ["character/ada"]), (tick + 1, ["character/ada"])):
        monkeypatch.setattr(index, "_settled_before", lambda connection, clock=clock: clock)
        reads.clear()
        assert [item["name"] for item in list_pieces(studio, KIND_NAMES)[0]] == ["Ada"]
        assert reads == read, clock
    reads.clear()
    monkeypatch.setattr(index, "_settled_before", lambda connection: tick + 2)
    assert [item["name"] for item in list_pieces(studio, KIND_NAMES)[0]] == ["Ada"] and reads == []


def test_an_index_held_by_another_process_is_answered_around_not_rebuilt(tmp_path, monkeypatch):
    # SQLite's "database is locked" after the lock timeout means in use, not damaged: the answer
    # comes from the files (in memory), and the holder's index is left as it is
    from bunzai import limits

    studio, _ = init_studio(tmp_path / "studio")
    folder = studio.root / "character"
    (folder / "ada.json").write_text(json.dumps({"kind": "character", "id": "ada", "name": "Ada Lovelace"}))
    assert [p["id"] for p in list_pieces(studio, KIND_NAMES)[0]] == ["ada"]
    index = studio.root / ".bunzai" / INDEX_NAME
    monkeypatch.setattr(limits, "LOCK_TIMEOUT_SECONDS", 0.05)
    inode = index.stat().st_ino
    holder = sqlite3.connect(index, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        (folder / "babbage.json").write_text(json.dumps({"kind": "character", "id": "babbage", "name": "Babbage"}))
        assert [p["id"] for p in list_pieces(studio, KIND_NAMES)[0]] == ["ada", "babbage"]
        assert [h["id"] for h in search_pieces(studio, KIND_NAMES, "lovelace", 10)] == ["ada"]
        assert index.stat().st_ino == inode  # not removed under the holder and built anew
        assert holder.execute("SELECT count(*) FROM files").fetchone()[0] == 1
        holder.execute("COMMIT")
    finally:
        holder.close()
    assert index.is_file()
    assert [p["id"] for p in list_pieces(studio, KIND_NAMES)[0]] == ["ada", "babbage"]


def _list_and_search(root: str, barrier, answers) -> None:
    from bunzai.store.studio import Studio

    studio = Studio(root)
    barrier.wait()
    try:
        listed = [p["id"] for p in list_pieces(studio, KIND_NAMES)[0]]
        answers.put((len(listed), [h["id"] for h in search_pieces(studio, KIND_NAMES, "ada", 10)]))
    except Exception as error:  # noqa: BLE001 - the answer the test compares
        answers.put((repr(error), []))


def test_processes_building_a_missing_index_at_once_all_answer(tmp_path):
    # two builders both saw an empty database; the second to take the write lock made the schema
    # again, failed, and removed the file under the first ('attempt to write a readonly database')
    import multiprocessing

    context = multiprocessing.get_context("fork")
    for round_ in range(8):
        studio, _ = init_studio(tmp_path / f"studio{round_}")
        folder = studio.root / "character"
        for number in range(100):
            (folder / f"p{number}.json").write_text(json.dumps({"kind": "character", "id": f"p{number}", "name": "P"}))
        (folder / "ada.json").write_text(json.dumps({"kind": "character", "id": "ada", "name": "Ada"}))
        barrier, answers = context.Barrier(6), context.Queue()
        workers = [
            context.Process(target=_list_and_search, args=(str(studio.root), barrier, answers)) for _ in range(6)
        ]
        for worker in workers:
            worker.start()
        got = [answers.get(timeout=60) for _ in workers]
        for worker in workers:
            worker.join()
        assert got == [(101, ["ada"])] * 6, got
