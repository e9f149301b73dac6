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


def card_with_book(card_id: str, book_id: str, book_name: str, content: str, world: str = "") -> list[dict]:
    """A card's group as a card file gives it: the card (bound to `world` by name where one is
    given, as SillyTavern's `data.extensions.world`) and its embedded book of one entry."""
    drafts = group(("character", card_id, card_id.title()), ("lorebook", book_id, book_name))
    card, book = drafts[0]["proposed"], drafts[1]["proposed"]
    card["original"] = {
        "format": "ccv3.json",
        "document": {"spec": "chara_card_v3", "data": {"name": card["name"], "extensions": {"world": world}}},
    }
    book["body"] = {"entries": [{"keys": [{"text": "k", "regex": False, "flags": ""}], "content": content}]}
    return drafts


def stored_books(*books: list[dict]):
    """A studio reader holding the books of these groups (as `stored_reader` reads a studio)."""
    held = {("lorebook", drafts[1]["target"]["id"]): drafts[1]["proposed"] for drafts in books}
    return lambda kind, piece_id: held.get((kind, piece_id))


def test_skip_drops_a_taken_book_that_is_the_cards_world_by_name_and_the_card_stands_alone():
    """SillyTavern's checkEmbeddedWorld: a world of the name the card is bound to is there, so it is used."""
    stored = stored_books(card_with_book("x", "eldoria", "Eldoria", "the stored world"))
    policy = ConflictPolicy("skip", {("lorebook", "eldoria")}, stored)
    [card] = policy.settle(card_with_book("mira", "eldoria", "Eldoria", "an older copy", world="Eldoria"))
    assert card["target"]["id"] == "mira" and "group" not in card
    assert card["proposed"]["body"]["links"]["lorebooks"] == ["eldoria"]
    assert policy.skipped == ["lorebook/eldoria"] and policy.apart == []


def test_skip_drops_a_taken_unbound_book_with_the_same_name_and_entries():
    stored = stored_books(card_with_book("ann", "lore", "Lore", "SAME"))
    policy = ConflictPolicy("skip", {("lorebook", "lore")}, stored)
    [card] = policy.settle(card_with_book("bob", "lore", "Lore", "SAME"))
    assert card["proposed"]["body"]["links"]["lorebooks"] == ["lore"] and policy.skipped == ["lorebook/lore"]


@pytest.mark.parametrize("stored", [True, False], ids=["stored", "earlier-in-the-import"])
def test_skip_keeps_a_card_book_apart_where_another_book_holds_its_id(stored):
    """Two cards' unbound books both called Lore: Bob must not link to Ann's book."""
    ann = card_with_book("ann", "lore", "Lore", "ANN SECRET")
    if stored:
        policy = ConflictPolicy("skip", {("lorebook", "lore")}, stored_books(ann))
    else:
        policy = ConflictPolicy("skip", ())
        assert len(policy.settle(ann)) == 2
    card, book = policy.settle(card_with_book("bob", "lore", "Lore", "BOB SECRET"))
    assert book["target"]["id"] == "lore-2" and book["proposed"]["id"] == "lore-2"
    assert book["proposed"]["body"]["entries"][0]["content"] == "BOB SECRET"
    assert card["proposed"]["body"]["links"]["lorebooks"] == ["lore-2"]
    assert card["group"]["size"] == book["group"]["size"] == 2
    assert policy.skipped == [] and policy.apart == [("lorebook/lore", "lore-2")]
    assert "lorebook/lore -> lore-2" in policy.summary() and "another book holds theirs" in policy.summary()


def test_skip_links_a_third_card_to_the_same_book_kept_apart_before():
    policy = ConflictPolicy("skip", ())
    policy.settle(card_with_book("ann", "lore", "Lore", "ANN"))
    policy.settle(card_with_book("bob", "lore", "Lore", "BOB"))
    [card] = policy.settle(card_with_book("cid", "lore", "Lore", "BOB"))
    assert card["proposed"]["body"]["links"]["lorebooks"] == ["lore-2"]
    [dan, dans_book] = policy.settle(card_with_book("dan", "lore", "Lore", "DAN"))
    assert dans_book["target"]["id"] == "lore-3" and dan["proposed"]["body"]["links"]["lorebooks"] == ["lore-3"]


def test_skip_keeps_apart_a_bound_card_book_where_the_piece_holding_the_id_is_named_otherwise():
    """A lorebook `eldoria` named X is not the world Eldoria SillyTavern would look for."""
    stored = stored_books(card_with_book("x", "eldoria", "X", "something else"))
    policy = ConflictPolicy("skip", {("lorebook", "eldoria")}, stored)
    card, book = policy.settle(card_with_book("mira", "eldoria", "Eldoria", "a glade", world="Eldoria"))
    assert book["target"]["id"] == "eldoria-2" and card["proposed"]["body"]["links"]["lorebooks"] == ["eldoria-2"]


def test_refuse_links_a_second_card_to_the_same_copy_of_its_world_an_earlier_card_carries():
    policy = ConflictPolicy("refuse", ())
    results = [
        ("Ann.png", card_with_book("ann", "shared-world", "Shared World", "same", world="Shared World")),
        ("Bob.png", card_with_book("bob", "shared-world", "Shared World", "same", world="Shared World")),
    ]
    (_, ann), (_, [bob]) = policy.apply(results)
    assert len(ann) == 2 and "group" not in bob and bob["proposed"]["body"]["links"]["lorebooks"] == ["shared-world"]
    assert policy.shared == ["lorebook/shared-world"] and policy.clashes == []


def test_refuse_leaves_a_differing_copy_of_a_world_to_apply_and_says_what_to_do():
    policy = ConflictPolicy("refuse", ())
    results = [
        ("Ann.png", card_with_book("ann", "shared-world", "Shared World", "one", world="Shared World")),
        ("Bob.png", card_with_book("bob", "shared-world", "Shared World", "two", world="Shared World")),
    ]
    assert list(policy.apply(results)) == results
    assert policy.clashes == [("character/bob", "Shared World")]
    summary = policy.summary()
    assert "character/bob ('Shared World')" in summary and "--on-conflict skip" in summary
    assert "worlds/<name>.json" in summary


def test_the_summary_spells_a_policy_as_its_caller_takes_it_and_never_rewrites_a_name():
    """folder_import's agent has no flags: its notes name the argument; a world's name is quoted as it is."""
    policy = ConflictPolicy("refuse", ())
    world = "--on-conflict skip"  # a name that spells the flag
    results = list(
        policy.apply(
            [
                ("Ann.png", card_with_book("ann", "w", world, "one", world=world)),
                ("Bob.png", card_with_book("bob", "w", world, "two", world=world)),
            ]
        )
    )
    assert len(results) == 2 and policy.clashes == [("character/bob", world)]
    for_tools = policy.summary(option="on_conflict={}")
    assert "on_conflict=skip;" in for_tools and "on_conflict=suffix;" in for_tools
    assert f"character/bob ({world!r})" in for_tools and for_tools.count("--on-conflict") == 1  # the name's own
    assert policy.summary() == for_tools.replace("on_conflict=", "--on-conflict ")


def test_refuse_links_no_card_to_an_earlier_copy_where_the_studio_holds_the_world_id():
    """The earlier copy is refused by apply then (occupied): linking would reach the stored piece."""
    stored = stored_books(card_with_book("x", "shared-world", "Shared World", "unrelated"))
    policy = ConflictPolicy("refuse", (), stored)
    results = [
        ("Ann.png", card_with_book("ann", "shared-world", "Shared World", "same", world="Shared World")),
        ("Bob.png", card_with_book("bob", "shared-world", "Shared World", "same", world="Shared World")),
    ]
    assert list(policy.apply(results)) == results and policy.summary() is None


def test_refuse_links_no_card_to_an_earlier_copy_apply_refuses_with_its_card():
    """Ann is stored already (her book deleted since): apply refuses Ann's group, so Bob keeps his copy."""
    ann = card_with_book("ann", "shared-world", "Shared World", "same", world="Shared World")
    stored = {("character", "ann"): ann[0]["proposed"]}
    policy = ConflictPolicy("refuse", (), lambda kind, piece_id: stored.get((kind, piece_id)))
    bob = card_with_book("bob", "shared-world", "Shared World", "same", world="Shared World")
    assert list(policy.apply([("Ann.png", ann), ("Bob.png", bob)])) == [("Ann.png", ann), ("Bob.png", bob)]


def test_refuse_keeps_unbound_books_of_one_id_for_apply():
    policy = ConflictPolicy("refuse", ())
    results = [
        ("Ann.png", card_with_book("ann", "lore", "Lore", "same")),
        ("Bob.png", card_with_book("bob", "lore", "Lore", "same")),
    ]
    assert list(policy.apply(results)) == results


def test_a_path_that_cannot_be_read_comes_after_the_drafts_waiting_for_the_end():
    policy = ConflictPolicy("suffix", {("lorebook", "eldoria")})

    def results():
        yield "a.png", card_bound_to("sera", "eldoria")
        raise BunzaiError("not_found", "b.json: no such file")

    out = policy.apply(results())
    assert next(out)[0] == "a.png"
    with pytest.raises(BunzaiError):
        next(out)


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


def test_refuse_passes_ids_through():
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


class CountingSet(set):
    """A set that counts how often it is asked whether it holds an id."""

    asked = 0

    def __contains__(self, item) -> bool:
        CountingSet.asked += 1
        return super().__contains__(item)


def test_suffix_over_many_pieces_of_one_id_asks_for_each_number_once():
    """A library holding one name a thousand times: each copy's next free -N is found where the
    last search stopped (ids are only ever taken), not by trying -2, -3 ... again each time, which
    made a large import quadratic in the copies of one name."""
    policy = ConflictPolicy("suffix", [("character", "alice-5")])
    policy.taken = CountingSet(policy.taken)
    CountingSet.asked = 0
    results = ((f"{n}.json", group(("character", "alice", "Alice"))) for n in range(1000))
    ids = [drafts[0]["target"]["id"] for _path, drafts in policy.apply(results)]
    assert ids == ["alice"] + [f"alice-{n}" for n in range(2, 1002) if n != 5]
    assert CountingSet.asked < 10 * len(ids)
