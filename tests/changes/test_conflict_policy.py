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


def card_bound_to(card_id: str, book_id: str) -> list[dict]:
    """A card whose book is not in its own file (a user folder's card and its world file)."""
    [draft] = group(("character", card_id, card_id.title()))
    draft["proposed"]["body"]["links"]["lorebooks"] = [book_id]
    return [draft]


def test_suffix_a_card_follows_its_world_renamed_in_an_earlier_file():
    policy = ConflictPolicy("suffix", {("lorebook", "eldoria")})
    results = [
        ("worlds/Eldoria.json", group(("lorebook", "eldoria", "Eldoria"))),
        ("a.png", card_bound_to("sera", "eldoria")),
    ]
    (_, [world]), (_, [card]) = policy.apply(results)
    assert world["target"]["id"] == "eldoria-2"
    assert card["target"]["id"] == "sera" and card["proposed"]["body"]["links"]["lorebooks"] == ["eldoria-2"]


def test_suffix_a_card_read_before_its_world_waits_for_the_world():
    policy = ConflictPolicy("suffix", {("lorebook", "eldoria")})
    results = [
        ("a.png", card_bound_to("sera", "eldoria")),
        ("z/Eldoria.json", group(("lorebook", "eldoria", "Eldoria"))),
    ]
    out = list(policy.apply(results))
    assert [path for path, _ in out] == ["z/Eldoria.json", "a.png"]
    assert out[1][1][0]["proposed"]["body"]["links"]["lorebooks"] == ["eldoria-2"]


def test_suffix_a_card_follows_the_last_world_read_with_its_id():
    """Two user folders in one import: each card links to the world of its own folder."""
    policy = ConflictPolicy("suffix", ())
    results = [
        ("one/worlds/Eldoria.json", group(("lorebook", "eldoria", "Eldoria"))),
        ("one/characters/a.png", card_bound_to("sera", "eldoria")),
        ("two/worlds/Eldoria.json", group(("lorebook", "eldoria", "Eldoria"))),
        ("two/characters/a.png", card_bound_to("sera", "eldoria")),
    ]
    links = [(d["target"]["id"], d["proposed"]["body"].get("links")) for _, [d] in policy.apply(results)]
    assert [(piece_id, link["lorebooks"] if link else None) for piece_id, link in links] == [
        ("eldoria", None),
        ("sera", ["eldoria"]),
        ("eldoria-2", None),
        ("sera-2", ["eldoria-2"]),
    ]


def test_suffix_a_card_linking_a_stored_world_the_import_lacks_keeps_its_link():
    policy = ConflictPolicy("suffix", {("lorebook", "eldoria")})
    results = [("a.png", card_bound_to("sera", "eldoria")), ("b.json", group(("lorebook", "other", "Other")))]
    out = list(policy.apply(results))
    assert [path for path, _ in out] == ["b.json", "a.png"]
    assert out[1][1][0]["proposed"]["body"]["links"]["lorebooks"] == ["eldoria"]


def test_suffix_a_carried_book_wins_over_a_world_of_another_file():
    policy = ConflictPolicy("suffix", {("lorebook", "eldoria")})
    results = [
        ("worlds/Eldoria.json", group(("lorebook", "eldoria", "Eldoria"))),
        ("card.png", group(("character", "mira", "Mira"), ("lorebook", "eldoria", "Eldoria"))),
    ]
    (_, _), (_, [card, book]) = policy.apply(results)
    assert book["target"]["id"] == "eldoria-3" and card["proposed"]["body"]["links"]["lorebooks"] == ["eldoria-3"]


def test_skip_leaves_links_to_a_skipped_world_on_the_stored_one():
    policy = ConflictPolicy("skip", {("lorebook", "eldoria")})
    results = [
        ("worlds/Eldoria.json", group(("lorebook", "eldoria", "Eldoria"))),
        ("a.png", card_bound_to("sera", "eldoria")),
    ]
    (_, skipped), (_, [card]) = policy.apply(results)
    assert skipped == [] and card["proposed"]["body"]["links"]["lorebooks"] == ["eldoria"]
