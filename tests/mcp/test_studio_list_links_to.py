"""studio_list's `links_to`: the pieces pointing at one, as `bunzai list --links-to` lists them,
paged by `after` or by offset like any listing."""

from __future__ import annotations

import json

from test_list_after import call, refused, studio_with

from bunzai.store.studio import Studio


def character(studio: Studio, piece_id: str, lorebooks: list[str]) -> None:
    piece = {"kind": "character", "id": piece_id, "name": piece_id.title(), "body": {"links": {"lorebooks": lorebooks}}}
    (studio.root / "character" / f"{piece_id}.json").write_text(json.dumps(piece))


def ids(page: dict) -> list[str]:
    return [row["id"] for row in page["items"]["data"]]


def test_links_to_lists_the_pieces_pointing_at_one_even_when_it_is_gone(tmp_path):
    studio, dispatcher = studio_with(tmp_path, [("lorebook", "eldoria")])
    for piece_id, books in (("ada", ["eldoria"]), ("bob", []), ("cy", ["other", "eldoria"])):
        character(studio, piece_id, books)
    page = call(dispatcher, links_to="lorebook/eldoria")
    assert ids(page) == ["ada", "cy"] and page["total"] == 2 and page["next_offset"] is None
    (studio.root / "lorebook" / "eldoria.json").unlink()
    assert ids(call(dispatcher, links_to="lorebook/eldoria")) == ["ada", "cy"]
    assert ids(call(dispatcher, links_to="lorebook/eldoria", kind="persona")) == []


def test_links_to_pages_by_after_and_by_offset(tmp_path):
    studio, dispatcher = studio_with(tmp_path, [])
    for piece_id in ("a", "b", "c", "d", "e"):
        character(studio, piece_id, ["eldoria"])
    first = call(dispatcher, links_to="lorebook/eldoria", limit=2)
    assert ids(first) == ["a", "b"] and first["next_offset"] == 2 and first["next_after"] == "character/b"
    assert "links_to 'lorebook/eldoria'" in first["hint"]
    second = call(dispatcher, links_to="lorebook/eldoria", limit=2, after=first["next_after"])
    assert ids(second) == ["c", "d"] and second["next_after"] == "character/d"
    last = call(dispatcher, links_to="lorebook/eldoria", limit=2, offset=4)
    assert ids(last) == ["e"] and last["next_offset"] is None and "hint" not in last


def test_a_links_to_that_is_no_ref_is_refused_as_the_cli_refuses_it(tmp_path):
    _, dispatcher = studio_with(tmp_path, [])
    assert refused(dispatcher, links_to="eldoria")["code"] == "invalid_id"
    assert refused(dispatcher, links_to="world/eldoria")["code"] == "unknown_kind"
    assert refused(dispatcher, links_to="lorebook/eldoria", after="character/a", offset=1)["code"] == "invalid_input"
