"""`bunzai list --links-to KIND/ID`: the pieces that link to a piece, read off the studio index."""

from __future__ import annotations

import json

import pytest


def make(bunzai, kind: str, payload: dict) -> None:
    draft = bunzai("create", kind, "--input", json.dumps(payload), check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)


def refs(result) -> list[str]:
    return [f"{row['kind']}/{row['id']}" for row in result.json["items"]]


def test_list_links_to_names_the_linking_pieces_as_list_rows(bunzai) -> None:
    make(bunzai, "lorebook", {"name": "Eldoria"})
    make(bunzai, "character", {"name": "Ada", "links": {"lorebooks": ["eldoria"]}})
    make(bunzai, "character", {"name": "Bob"})
    make(bunzai, "persona", {"name": "Me", "lorebook": "eldoria"})
    listed = {f"{row['kind']}/{row['id']}": row for row in bunzai("list", check=True).json["items"]}
    for args in (("list", "--links-to", "lorebook/eldoria"), ("--table", "list", "--links-to=lorebook/eldoria")):
        result = bunzai(*args, check=True)
        if args[0] == "--table":  # through Typer, not the fast path
            assert result.stdout.split()[:4] == ["KIND", "ID", "NAME", "REVISION"]
            assert [line.split()[:2] for line in result.stdout.splitlines()[1:]] == [
                ["character", "ada"],
                ["persona", "me"],
            ]
            continue
        doc = result.json
        assert doc["count"] == 2 and doc["damaged"] == []
        assert doc["items"] == [listed["character/ada"], listed["persona/me"]]
    assert refs(bunzai("list", "--links-to", "lorebook/eldoria", "--kind", "persona", check=True)) == ["persona/me"]
    assert bunzai("list", "--links-to", "character/ada", check=True).json == {"count": 0, "items": [], "damaged": []}


def test_an_edit_through_apply_and_a_delete_show_up_in_the_next_answer(bunzai) -> None:
    make(bunzai, "lorebook", {"name": "Eldoria"})
    make(bunzai, "character", {"name": "Ada"})
    assert refs(bunzai("list", "--links-to", "lorebook/eldoria", check=True)) == []
    draft = bunzai(
        "cap",
        "run",
        "character.links.update",
        "character/ada",
        "--input",
        '{"lorebooks": {"add": ["eldoria"]}}',
        check=True,
    )
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    assert refs(bunzai("list", "--links-to", "lorebook/eldoria", check=True)) == ["character/ada"]
    # the piece linked is gone: who still points at it is what a user asks then
    done = bunzai("delete", "lorebook/eldoria", "--yes", check=True).json
    assert done["referrers"] == [{"kind": "character", "id": "ada"}]
    assert refs(bunzai("list", "--links-to", "lorebook/eldoria", check=True)) == ["character/ada"]
    bunzai("delete", "character/ada", "--yes", check=True)
    assert refs(bunzai("list", "--links-to", "lorebook/eldoria", check=True)) == []


@pytest.mark.parametrize("ref", ["nokind/ada", "character/Ada", "character/", "/ada"])
def test_a_malformed_ref_is_refused_as_other_ref_options_refuse_it(bunzai, ref) -> None:
    got = bunzai("list", "--links-to", ref)
    other = bunzai("wait", "--piece-exists", ref, "--timeout", "0")
    assert got.code == other.code != 0
    assert got.json["error"]["code"] == other.json["error"]["code"]


def test_a_bare_id_is_refused_with_the_kind_asked_for(bunzai) -> None:
    make(bunzai, "lorebook", {"name": "Eldoria"})
    got = bunzai("list", "--links-to", "eldoria")
    assert got.code == 1
    assert got.json["error"]["code"] == "invalid_id" and "kind/id" in got.json["error"]["hint"]
