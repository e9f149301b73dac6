"""studio_list pages by `after` (keyset): a page starts after the last piece of the one before,
wherever that piece now stands, so pieces added or removed between pages never make another
piece show twice or go missing, as they do when paging by offset."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.store.studio import Studio, init_studio
from bunzai.tools.contract import Context

VERSION = "2025-06-18"
KINDS = ("character", "lorebook", "persona", "regex")


def write(studio: Studio, kind: str, piece_id: str) -> None:
    piece = {"kind": kind, "id": piece_id, "name": f"{kind} {piece_id}"}
    (studio.root / kind / f"{piece_id}.json").write_text(json.dumps(piece))


def remove(studio: Studio, kind: str, piece_id: str) -> None:
    (studio.root / kind / f"{piece_id}.json").unlink(missing_ok=True)


def call(dispatcher: Dispatcher, **arguments) -> dict:
    result = dispatcher.call("studio_list", arguments, VERSION)
    assert not result["isError"], result["content"][0]["text"]
    return result["structuredContent"]


def refused(dispatcher: Dispatcher, **arguments) -> dict:
    result = dispatcher.call("studio_list", arguments, VERSION)
    assert result["isError"], result["structuredContent"]
    return result["structuredContent"]["error"]


def rows(page: dict) -> list[tuple[str, str]]:
    return [(row["kind"], row["id"]) for row in page["items"]["data"]]


def studio_with(tmp_path, pieces) -> tuple[Studio, Dispatcher]:
    studio, _ = init_studio(tmp_path / "studio")
    for kind, piece_id in pieces:
        write(studio, kind, piece_id)
    return studio, Dispatcher(Context(studio=studio, handles=Handles()))


_PIECE = st.tuples(st.sampled_from(KINDS), st.sampled_from(("a", "b", "c", "d", "e", "f", "g", "h")))
_CHANGE = st.tuples(st.sampled_from(("add", "remove")), _PIECE)


@settings(max_examples=60, deadline=None)
@given(
    first=st.sets(_PIECE, max_size=20),
    between=st.lists(st.lists(_CHANGE, max_size=5), max_size=12),
    limit=st.integers(1, 4),
    kind=st.sampled_from((None, *KINDS)),
)
def test_paging_by_after_sees_every_lasting_piece_once_in_order(tmp_path_factory, first, between, limit, kind):
    """Whatever the studio holds and whatever is added or removed between two pages, paging by
    after returns every piece present throughout exactly once, all of them in order, and no
    piece that was never there."""
    studio, dispatcher = studio_with(tmp_path_factory.mktemp("after"), first)
    present, ever, lasting = set(first), set(first), set(first)
    seen: list[tuple[str, str]] = []
    arguments = {"limit": limit} | ({"kind": kind} if kind else {})
    page = call(dispatcher, **arguments)
    for step in range(len(ever) + sum(map(len, between)) + 2):  # each page moves forward: this many suffice
        seen += rows(page)
        if page["next_after"] is None:
            break
        assert page["next_after"] == "/".join(seen[-1]) and repr(page["next_after"]) in page["hint"]
        for change, piece in between[step] if step < len(between) else ():
            if change == "add":
                write(studio, *piece)
                present.add(piece)
                ever.add(piece)
            else:
                remove(studio, *piece)
                present.discard(piece)
                lasting.discard(piece)
        page = call(dispatcher, **arguments, after=page["next_after"])
        assert page["total"] == len([p for p in present if kind in (None, p[0])])
    else:
        pytest.fail("paging by after did not end")
    assert seen == sorted(set(seen)), "in order, each once"
    wanted = {p for p in lasting if kind in (None, p[0])}
    assert wanted <= set(seen) <= {p for p in ever if kind in (None, p[0])}


def test_an_insert_before_the_boundary_shifts_offset_but_not_after(tmp_path):
    """The case that made `after`: a piece added before the page boundary makes the next page by
    offset repeat a row; the next page by after starts where the last one ended."""
    studio, dispatcher = studio_with(tmp_path, [("character", f"c{n}") for n in range(6)])
    page = call(dispatcher, limit=3)
    assert rows(page) == [("character", "c0"), ("character", "c1"), ("character", "c2")]
    assert page["next_offset"] == 3 and page["next_after"] == "character/c2"
    write(studio, "character", "b0")  # sorts first
    by_offset = call(dispatcher, limit=3, offset=page["next_offset"])
    by_after = call(dispatcher, limit=3, after=page["next_after"])
    assert rows(by_offset)[0] == ("character", "c2")  # seen twice: why offset is not enough
    assert rows(by_after) == [("character", "c3"), ("character", "c4"), ("character", "c5")]
    assert by_after["next_after"] is None and "hint" not in by_after and by_after["total"] == 7


def test_after_a_piece_that_is_gone_starts_where_it_would_sort(tmp_path):
    studio, dispatcher = studio_with(tmp_path, [("character", "a"), ("character", "c"), ("persona", "a")])
    remove(studio, "character", "c")
    assert rows(call(dispatcher, after="character/b")) == [("persona", "a")]
    assert rows(call(dispatcher, after="character/c")) == [("persona", "a")]
    assert rows(call(dispatcher, after="regex/a")) == []
    assert rows(call(dispatcher, after="character/a", kind="persona")) == [("persona", "a")]
    assert rows(call(dispatcher, after="regex/a", kind="persona")) == []


def test_a_page_by_after_names_what_is_left_and_keeps_the_kind(tmp_path):
    pieces = [("character", f"c{n}") for n in range(5)] + [("persona", "p0")]
    _, dispatcher = studio_with(tmp_path, pieces)
    page = call(dispatcher, kind="character", limit=2, after="character/c0")
    assert rows(page) == [("character", "c1"), ("character", "c2")] and page["total"] == 5
    assert page["after"] == "character/c0" and page["next_after"] == "character/c2"
    assert page["hint"] == "2 more: call studio_list again with after 'character/c2' and kind 'character'"
    assert "offset" not in page and "next_offset" not in page


def test_damaged_files_are_named_on_a_page_by_after_and_never_listed(tmp_path):
    studio, dispatcher = studio_with(tmp_path, [("character", "a"), ("character", "c")])
    (studio.root / "character" / "b.json").write_text('{"kind": "char')
    page = call(dispatcher, after="character/a")
    assert rows(page) == [("character", "c")] and page["total"] == 2
    assert [(row["kind"], row["id"]) for row in page["damaged"]] == [("character", "b")]


@pytest.mark.parametrize(
    ("after", "code"),
    [
        ("ada", "invalid_id"),
        ("character/Bad Id", "invalid_id"),
        ("character/", "invalid_id"),
        ("character/a/b", "invalid_id"),
        ("charcter/ada", "unknown_kind"),
        ("/ada", "unknown_kind"),
    ],
)
def test_an_after_that_is_not_a_ref_is_refused(tmp_path, after, code):
    _, dispatcher = studio_with(tmp_path, [("character", "ada")])
    error = refused(dispatcher, after=after)
    assert error["code"] == code, error
    assert "bunzai" not in error["hint"], error["hint"]


def test_after_and_offset_together_are_refused(tmp_path):
    _, dispatcher = studio_with(tmp_path, [("character", "ada")])
    assert refused(dispatcher, after="character/ada", offset=1)["code"] == "invalid_input"
    assert call(dispatcher, after="character/ada", offset=0)["count"] == 0  # offset 0 is no offset


def test_a_page_by_offset_names_the_next_after_too(tmp_path):
    _, dispatcher = studio_with(tmp_path, [("character", f"c{n}") for n in range(3)])
    page = call(dispatcher, limit=2)
    assert page["next_offset"] == 2 and page["next_after"] == "character/c1"
    assert "offset 2" in page["hint"] and "'character/c1'" in page["hint"]
    assert call(dispatcher, offset=2)["next_after"] is None
