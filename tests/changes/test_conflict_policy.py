"""ConflictPolicy on its own: groups regrouped, suffixes within the id length, claims remembered."""

from __future__ import annotations

import pytest

from bunzai.changes.conflicts import ConflictPolicy
from bunzai.changes.draft import new_draft
from bunzai.errors import BunzaiError


def group(*refs: tuple[str, str, str]) -> list[dict]:
    drafts = []
    for index, (kind, piece_id, name) in enumerate(refs):
        proposed = {"kind": kind, "id": piece_id, "name": name, "body": {}}
        if kind == "character":
            proposed["body"] = {
                "links": {"lorebooks": [r[1] for r in refs if r[0] == "lorebook"], "regex": [], "quickreplies": []},
                "media": {"pack": None},
            }
        drafts.append(
            new_draft(
                mode="create",
                proposed=proposed,
                operations=[],
                group={"id": "g", "index": index, "size": len(refs)} if len(refs) > 1 else None,
            )
        )
    return drafts


def test_skip_drops_a_taken_book_and_the_card_stands_alone():
    policy = ConflictPolicy("skip", {("lorebook", "eldoria")})
    [card] = policy.settle(group(("character", "mira", "Mira"), ("lorebook", "eldoria", "Eldoria")))
    assert card["target"]["id"] == "mira" and "group" not in card
    assert policy.skipped == ["lorebook/eldoria"]


def test_skip_remembers_ids_claimed_earlier_in_the_stream():
    policy = ConflictPolicy("skip", ())
    assert len(policy.settle(group(("lorebook", "eldoria", "Eldoria")))) == 1
    assert policy.settle(group(("lorebook", "eldoria", "Eldoria"))) == []


def test_suffix_keeps_within_the_id_length_and_only_renames_links_of_the_same_kind():
    long_id = "a" * 128
    policy = ConflictPolicy("suffix", {("character", long_id), ("character", "eldoria")})
    drafts = policy.settle(group(("character", "eldoria", "Eldoria"), ("lorebook", "eldoria", "Eldoria")))
    assert [d["target"]["id"] for d in drafts] == ["eldoria-2", "eldoria"]
    assert drafts[0]["proposed"]["body"]["links"]["lorebooks"] == ["eldoria"]
    [renamed] = policy.settle(group(("character", long_id, "A")))
    assert renamed["target"]["id"] == "a" * 126 + "-2" and renamed["proposed"]["id"] == renamed["target"]["id"]


def test_refuse_passes_everything_through():
    policy = ConflictPolicy("refuse", {("lorebook", "eldoria")})
    results = [("f", group(("lorebook", "eldoria", "Eldoria")))]
    assert list(policy.apply(results)) == results


def test_an_unknown_policy_is_refused():
    with pytest.raises(BunzaiError):
        ConflictPolicy("merge", ())
