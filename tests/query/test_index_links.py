"""The studio index keeps each piece's links: `list --links-to`, and the referrers of a delete, read them."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.changes import imports
from bunzai.model import KIND_NAMES
from bunzai.query import links
from bunzai.query.index import INDEX_NAME, linking_pieces, list_pieces
from bunzai.store.canon import canonical_bytes
from bunzai.store.studio import init_studio


def write(studio, doc: dict) -> None:
    (studio.root / doc["kind"] / f"{doc['id']}.json").write_bytes(canonical_bytes(doc))


def character(piece_id: str, books=(), regex=(), variant_books=(), pack=None) -> dict:
    body = {"links": {"lorebooks": list(books), "regex": list(regex)}, "media": {"pack": pack}}
    if variant_books:
        body["variants"] = [{"id": "v", "overrides": {"links": {"lorebooks": list(variant_books)}}}]
    return {"kind": "character", "id": piece_id, "name": piece_id.title(), "body": body}


def referring(studio, kind: str, piece_id: str) -> list[str]:
    rows, damaged = linking_pieces(studio, KIND_NAMES, kind, piece_id)
    assert damaged == []
    return [f"{row['kind']}/{row['id']}" for row in rows]


def link_rows(studio) -> list[tuple]:
    with sqlite3.connect(studio.root / ".bunzai" / INDEX_NAME) as connection:
        return sorted(
            connection.execute(
                "SELECT f.kind, f.id, l.kind, l.id FROM links AS l LEFT JOIN files AS f ON f.rowid = l.source"
            )
        )


def test_the_build_stores_every_link_of_every_piece(tmp_path):
    studio, _ = init_studio(tmp_path / "studio")
    write(studio, character("ada", books=["eldoria", "realm"], regex=["tidy"], variant_books=["eldoria", "dark"]))
    write(studio, {"kind": "persona", "id": "me", "name": "Me", "body": {"lorebook": "eldoria"}})
    phase = {"id": "reply", "stage": "reply", "preset": "house", "cards": ["ada"], "uses": {"regex": ["tidy"]}}
    write(studio, {"kind": "promptbook", "id": "turn", "name": "Turn", "body": {"phases": [phase]}})
    write(studio, {"kind": "lorebook", "id": "eldoria", "name": "Eldoria", "body": {"entries": []}})
    list_pieces(studio, KIND_NAMES)  # the first reader builds the index
    assert link_rows(studio) == [
        ("character", "ada", "lorebook", "dark"),
        ("character", "ada", "lorebook", "eldoria"),  # once, though the body and a variant both name it
        ("character", "ada", "lorebook", "realm"),
        ("character", "ada", "regex", "tidy"),
        ("persona", "me", "lorebook", "eldoria"),
        ("promptbook", "turn", "character", "ada"),
        ("promptbook", "turn", "preset", "house"),
        ("promptbook", "turn", "regex", "tidy"),
    ]
    assert referring(studio, "lorebook", "eldoria") == ["character/ada", "persona/me"]
    assert referring(studio, "regex", "tidy") == ["character/ada", "promptbook/turn"]
    assert referring(studio, "lorebook", "nowhere") == []
    assert referring(studio, "persona", "me") == []  # no piece links a persona
    rows, _ = linking_pieces(studio, ("persona",), "lorebook", "eldoria")
    assert [row["id"] for row in rows] == ["me"]  # only the kinds asked
    listed = {(row["kind"], row["id"]): row for row in list_pieces(studio, KIND_NAMES)[0]}
    assert rows == [listed[("persona", "me")]]  # the rows of `list`


def test_a_hand_edit_adding_or_removing_a_link_shows_up_on_the_next_read(tmp_path):
    studio, _ = init_studio(tmp_path / "studio")
    write(studio, character("ada"))
    write(studio, character("bob", books=["eldoria"]))
    assert referring(studio, "lorebook", "eldoria") == ["character/bob"]
    write(studio, character("ada", books=["eldoria"]))
    write(studio, character("bob", books=["realm"]))
    assert referring(studio, "lorebook", "eldoria") == ["character/ada"]
    assert referring(studio, "lorebook", "realm") == ["character/bob"]


def test_a_deleted_linking_piece_leaves_no_link_rows(tmp_path):
    studio, _ = init_studio(tmp_path / "studio")
    write(studio, character("ada", books=["eldoria"]))
    write(studio, character("bob", books=["eldoria"]))
    assert referring(studio, "lorebook", "eldoria") == ["character/ada", "character/bob"]
    (studio.root / "character" / "ada.json").unlink()
    assert referring(studio, "lorebook", "eldoria") == ["character/bob"]
    assert link_rows(studio) == [("character", "bob", "lorebook", "eldoria")]  # none left behind by ada


def test_a_piece_that_becomes_damaged_loses_its_links_and_is_named_damaged(tmp_path):
    studio, _ = init_studio(tmp_path / "studio")
    write(studio, character("ada", books=["eldoria"]))
    assert referring(studio, "lorebook", "eldoria") == ["character/ada"]
    (studio.root / "character" / "ada.json").write_text('{"kind": "character", "id": "ada", ', encoding="utf-8")
    rows, damaged = linking_pieces(studio, KIND_NAMES, "lorebook", "eldoria")
    assert rows == [] and [(d["kind"], d["id"]) for d in damaged] == [("character", "ada")]
    assert link_rows(studio) == []


def test_an_index_of_the_format_before_links_is_built_again(tmp_path):
    studio, _ = init_studio(tmp_path / "studio")
    write(studio, character("ada", books=["eldoria"]))
    list_pieces(studio, KIND_NAMES)
    path = studio.root / ".bunzai" / INDEX_NAME
    with sqlite3.connect(path) as connection:  # what an index of format 9 lacked
        connection.execute("DROP TABLE links")
        connection.execute("UPDATE meta SET value = '9' WHERE key = 'format'")
    assert referring(studio, "lorebook", "eldoria") == ["character/ada"]


_IDS = st.sampled_from(["eld", "eldoria", "e", "x.y", "ada", "house"])
_ID_LISTS = st.lists(_IDS, max_size=3)
# anything a hand edit might leave where a link is expected: lists, strings, numbers, nulls, objects
_ODD = st.one_of(_IDS, _ID_LISTS, st.none(), st.integers(), st.lists(st.one_of(_IDS, st.integers()), max_size=2))


@st.composite
def pieces(draw) -> dict:
    kind = draw(st.sampled_from(["character", "persona", "promptbook", "lorebook"]))
    if kind == "character":
        holder = {"links": {"lorebooks": draw(_ODD), "regex": draw(_ID_LISTS), "quickreplies": draw(_ID_LISTS)}}
        body = dict(holder, media={"pack": draw(st.one_of(st.none(), _IDS))})
        variants = draw(st.lists(st.fixed_dictionaries({"links": st.fixed_dictionaries({"lorebooks": _ODD})})))
        body["variants"] = [{"id": f"v{n}", "overrides": o} for n, o in enumerate(variants)] + draw(
            st.lists(st.one_of(st.none(), st.just({"id": "w"})), max_size=1)
        )
    elif kind == "persona":
        body = {"lorebook": draw(_ODD)}
    elif kind == "promptbook":
        phase = st.fixed_dictionaries(
            {
                "id": st.just("p"),
                "preset": st.one_of(st.none(), _IDS),
                "cards": _ODD,
                "uses": st.just({}) | st.fixed_dictionaries({"regex": _ODD}),
            }
        )
        body = {"phases": draw(st.lists(phase, max_size=3))}
    else:
        body = {"entries": []}
    return {"kind": kind, "name": "P", "body": body}


def sync(studio, stored: dict, before: dict) -> None:
    """Make the studio's files `stored` ((kind, id) -> doc), removing those of `before` it lacks."""
    for kind, piece_id in before.keys() - stored.keys():
        (studio.root / kind / f"{piece_id}.json").unlink()
    for doc in stored.values():
        write(studio, doc)


@settings(max_examples=40)
@given(docs=st.lists(pieces(), max_size=8), edits=st.lists(st.tuples(st.integers(0, 7), pieces()), max_size=3))
def test_the_index_answers_as_links_of_reads_the_files(docs, edits):
    with tempfile.TemporaryDirectory() as folder:
        studio, _ = init_studio(Path(folder) / "studio")
        built = {(doc["kind"], f"p{n}"): doc | {"id": f"p{n}"} for n, doc in enumerate(docs)}
        edited = dict(built)
        for n, doc in edits:  # hand edits after the build: a piece replaced (by one of another kind too), or new
            edited = {key: old for key, old in edited.items() if key[1] != f"p{n}"}
            edited[(doc["kind"], f"p{n}")] = doc | {"id": f"p{n}"}
        before: dict = {}
        for stored in (built, edited):
            sync(studio, stored, before)
            before = stored
            for doc in stored.values():
                assert set(links.links_in(doc)) == set(imports.links_of(doc)), doc
            targets = {link for doc in stored.values() for link in imports.links_of(doc)} | {("lorebook", "none")}
            for kind, piece_id in targets:
                expected = sorted(
                    f"{k}/{i}" for (k, i), doc in stored.items() if (kind, piece_id) in imports.links_of(doc)
                )
                assert referring(studio, kind, piece_id) == expected
