"""A user folder's card whose own book shares its name with a world file, unbound to it.

SillyTavern links a card to a world only by `data.extensions.world`; a card whose embedded book
merely has a world's name is linked to nothing (checkEmbeddedWorld offers to import the book,
over the world of that name). So the import must not link the card to that world and drop the
card's own entries: the book is the card's, and meets the world's id as any two books of one
name do (refused by apply under the default, kept apart by skip, renamed by suffix).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit import st_bob_library

BOOK = {"name": "Lore", "extensions": {}, "entries": [{"keys": ["bob"], "content": "Bob's own lore", "id": 0}]}
WORLD = {"entries": {"0": {"uid": 0, "key": ["x"], "content": "A different world", "comment": ""}}}


def library(tmp_path: Path, *, bound: bool) -> Path:
    return st_bob_library(tmp_path, BOOK, WORLD, bound=bound)


def entries_of(bunzai, ref: str) -> list[str]:
    piece = bunzai("read", ref, check=True).json["piece"]
    return [entry["content"] for entry in piece["body"]["entries"]]


@pytest.mark.parametrize("policy", ["skip", "suffix"])
def test_an_unbound_card_keeps_its_own_book_beside_a_world_of_that_name(bunzai, tmp_path, policy):
    drafts = bunzai("import", "--on-conflict", policy, str(library(tmp_path, bound=False)), check=True)
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    links = bunzai("read", "character/bob", "--pointer", "/body/links/lorebooks", check=True).json["value"]
    assert links == ["lore-2"]
    assert entries_of(bunzai, "lorebook/lore-2") == ["Bob's own lore"]
    assert entries_of(bunzai, "lorebook/lore") == ["A different world"]


def test_under_refuse_the_unbound_card_is_refused_not_linked_to_the_other_world(bunzai, tmp_path):
    drafts = bunzai("import", str(library(tmp_path, bound=False)), check=True)
    done = bunzai("apply", "--yes", input=drafts.stdout)
    assert done.code == 1
    receipts = [(f"{line['target']['kind']}/{line['target']['id']}", line["status"]) for line in done.lines]
    assert ("lorebook/lore", "applied") in receipts and ("character/bob", "stale") in receipts
    assert bunzai("read", "character/bob").code == 1
    assert entries_of(bunzai, "lorebook/lore") == ["A different world"]


def test_a_bound_card_links_to_its_world_file_and_its_copy_is_not_drafted(bunzai, tmp_path):
    drafts = bunzai("import", str(library(tmp_path, bound=True)), check=True)
    assert [line["target"]["id"] for line in drafts.lines] == ["lore", "bob"]
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    links = bunzai("read", "character/bob", "--pointer", "/body/links/lorebooks", check=True).json["value"]
    assert links == ["lore"]
