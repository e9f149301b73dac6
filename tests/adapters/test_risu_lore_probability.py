"""RisuAI's activationPercent acts only in an entry below bookVersion 2 (its load turns it into @@probability)."""

from __future__ import annotations

import json

from cards_support import read
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.convert import convert_piece


def entry(**extra) -> dict:
    return {
        "key": "dragon",
        "secondkey": "",
        "insertorder": 100,
        "comment": "Dragons",
        "content": "Dragons fly.",
        "mode": "normal",
        "alwaysActive": False,
        "selective": False,
        **extra,
    }


def export(*entries) -> bytes:
    return json.dumps({"type": "risu", "ver": 1, "data": list(entries)}).encode()


def risu_load(native: dict) -> int | None:
    """The chance RisuAI gives an entry after its load (updateLorebooks, then the @@probability
    decorator's parseInt), None when it gives none: a step-by-step copy of what it does."""
    version = native.get("bookVersion")
    version = 1 if version is None else version
    if version >= 2 or not native.get("activationPercent"):
        return None
    chance = int(native["activationPercent"])
    return min(100, max(0, chance))


def sure(chance: int | None) -> int | None:
    """A chance, with 100 as none: an entry fires as surely with either."""
    return None if chance == 100 else chance


def with_chances(piece, chances):
    entries = [
        e.model_copy(update={"use_probability": chance is not None, "probability": 100 if chance is None else chance})
        for e, chance in zip(piece.body.entries, chances)
    ]
    return piece.model_copy(update={"body": piece.body.model_copy(update={"entries": entries})})


def test_a_version_2_entry_reads_its_activation_percent_as_no_chance():
    _adapter, decoded, _media = read(export(entry(bookVersion=2, activationPercent=40)), "l.json")
    [dragon] = decoded.pieces[0].body.entries
    assert (dragon.use_probability, dragon.probability) == (False, 100)


def test_a_legacy_entry_reads_its_activation_percent_and_a_zero_as_none():
    _adapter, decoded, _media = read(export(entry(activationPercent=40), entry(activationPercent=0)), "l.json")
    legacy, zero = decoded.pieces[0].body.entries
    assert (legacy.use_probability, legacy.probability) == (True, 40)
    assert zero.use_probability is False


def test_a_chance_set_on_a_version_2_entry_is_written_so_risuai_acts_on_it():
    _adapter, decoded, media = read(export(entry(bookVersion=2, content="Hi <user>.")), "l.json")
    crossing = convert_piece(with_chances(decoded.pieces[0], [30]), "risu.lorebook", media)
    [written] = json.loads(crossing.data)["data"]
    assert risu_load(written) == 30 and "bookVersion" not in written
    codes = {(loss.pointer, loss.code) for loss in crossing.losses}
    assert ("/body/entries/0/extensions/risuai", "risu.entry.version_reset") in codes
    assert ("/body/entries/0/content", "risu.entry.version_reset") in codes  # the load makes {{user}} of <user>
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def test_a_zero_chance_is_named_as_lost():
    _adapter, decoded, media = read(export(entry(activationPercent=40)), "l.json")
    crossing = convert_piece(with_chances(decoded.pieces[0], [0]), "risu.lorebook", media)
    [written] = json.loads(crossing.data)["data"]
    assert risu_load(written) is None
    codes = {(loss.pointer, loss.code) for loss in crossing.losses}
    assert ("/body/entries/0/probability", "risu.entry.probability_zero") in codes
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


_NATIVE = st.fixed_dictionaries(
    {},
    optional={
        "bookVersion": st.sampled_from([1, 2, 3]),
        "activationPercent": st.one_of(st.integers(-20, 130), st.none()),
    },
)


@settings(max_examples=60, deadline=None)
@given(natives=st.lists(_NATIVE, min_size=1, max_size=4), data=st.data())
def test_what_is_written_gives_the_chance_risuai_acts_on(natives, data):
    """Read, set each entry's chance (or none), write: RisuAI's load gives every entry that chance
    (100 and none alike: both fire surely), unless it is 0 and the entry's own activationPercent
    does not already give 0 (a negative one does), which is named."""
    _adapter, decoded, media = read(export(*(entry(**native) for native in natives)), "l.json")
    for native, canonical in zip(natives, decoded.pieces[0].body.entries):
        assert (canonical.probability if canonical.use_probability else None) == risu_load(entry(**native))
    chances = data.draw(
        st.lists(st.one_of(st.none(), st.integers(0, 100)), min_size=len(natives), max_size=len(natives))
    )
    crossing = convert_piece(with_chances(decoded.pieces[0], chances), "risu.lorebook", media)
    written = json.loads(crossing.data)["data"]
    zero = {loss.pointer for loss in crossing.losses if loss.code == "risu.entry.probability_zero"}
    for index, (native, chance) in enumerate(zip(written, chances)):
        named = f"/body/entries/{index}/probability" in zero
        if chance == 0:
            assert risu_load(native) == (None if named else 0)
        else:
            assert sure(risu_load(native)) == sure(chance) and not named
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def test_a_negative_chance_risuai_acts_on_as_zero_goes_back_without_a_loss():
    # activationPercent -1 is truthy: RisuAI's load makes it @@probability -1, which never fires
    _adapter, decoded, media = read(export(entry(activationPercent=-1)), "l.json")
    (canonical,) = decoded.pieces[0].body.entries
    assert (canonical.use_probability, canonical.probability) == (True, 0)
    crossing = convert_piece(decoded.pieces[0], "risu.lorebook", media)
    assert json.loads(crossing.data)["data"][0]["activationPercent"] == -1
    assert crossing.losses == []


def card_book(*chances) -> bytes:
    """A V2 card whose book has one entry per chance (SillyTavern's probability keys; None: no keys)."""
    entries = [
        {
            "id": index,
            "keys": [f"key{index}"],
            "content": f"Entry {index}.",
            "enabled": True,
            "insertion_order": 100,
            **({} if chance is None else {"extensions": {"probability": chance, "useProbability": True}}),
        }
        for index, chance in enumerate(chances)
    ]
    card = {
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {"name": "Ana", "character_book": {"entries": entries}},
    }
    return json.dumps(card).encode()


def test_a_card_book_entry_of_certain_chance_crosses_with_no_activation_percent():
    # RisuAI writes no activationPercent on an entry without a chance (addLorebook), and its card
    # import writes @@probability only for a SillyTavern chance other than 100 (convertCharbook)
    _adapter, decoded, media = read(card_book(100, 40, None), "ana.json")
    [book] = [piece for piece in decoded.pieces if piece.kind == "lorebook"]
    crossing = convert_piece(book, "risu.lorebook", media)
    certain, chance, bare = json.loads(crossing.data)["data"]
    assert "activationPercent" not in certain and "activationPercent" not in bare
    assert chance["activationPercent"] == 40 and risu_load(chance) == 40
    assert [loss.code for loss in crossing.losses] == ["escrow.other_format"]


def test_a_certain_chance_on_a_version_2_entry_keeps_its_version():
    _adapter, decoded, media = read(export(entry(bookVersion=2, content="Hi <user>.")), "l.json")
    crossing = convert_piece(with_chances(decoded.pieces[0], [100]), "risu.lorebook", media)
    [written] = json.loads(crossing.data)["data"]
    assert written["bookVersion"] == 2 and "activationPercent" not in written
    assert crossing.losses == []


def test_an_entry_of_risuai_at_100_is_written_back_as_it_was():
    _adapter, decoded, media = read(export(entry(activationPercent=100)), "l.json")
    crossing = convert_piece(decoded.pieces[0], "risu.lorebook", media)
    assert json.loads(crossing.data)["data"][0]["activationPercent"] == 100
    assert crossing.losses == []


def test_a_new_entry_of_the_default_sure_chance_has_no_risuai_impact():
    # the default entry sets a chance of 100 (use_probability on), which RisuAI's lorebook writes as none
    from bunzai.convert import platform_impact
    from bunzai.model import dump_piece
    from bunzai.model.lorebook import Lorebook

    one = {"uid": 0, "keys": [{"text": "a"}], "content": "x"}
    before = Lorebook(id="b", name="b", body={"entries": [one]})
    after = Lorebook(id="b", name="b", body={"entries": [one, {**one, "uid": 1, "content": "y"}]})
    for rows in (platform_impact(dump_piece(before), dump_piece(after)), platform_impact(None, dump_piece(after))):
        assert not [row for row in rows if row["platform"].startswith("risu.")]


def test_a_chance_of_100_on_or_off_is_the_same_and_any_other_is_not():
    from bunzai.adapters.common.book_losses import sure_chances

    def book(*chances):
        entries = [{"probability": p, "use_probability": on} for p, on in chances]
        return {"kind": "lorebook", "body": {"entries": entries}}

    assert sure_chances(book((100, True), (50, True)), book((100, False), (50, False))) == {
        "/body/entries/0/use_probability"
    }
    card = {"kind": "character", "body": {"book": book((100, True))["body"]}}
    assert sure_chances(card, {"kind": "character", "body": {"book": None}}) == set()
    assert sure_chances(card, card) == {"/body/book/entries/0/use_probability"}


def test_the_writer_writes_none_for_exactly_the_chances_the_read_back_check_takes_as_sure():
    # RisuAI's load makes an activationPercent N `@@probability N`, which deactivates on
    # `Math.random() * 100 > parseInt(N)`: from 100 up it never misses, as with no chance at all.
    # The writer (_chance) and the check (sure_chances) used to differ past 100 (>= 100 against == 100).
    from bunzai.adapters.common.book_losses import sure_chances
    from bunzai.adapters.risu.lore_entries import _chance

    def book(probability, on):
        return {"kind": "lorebook", "body": {"entries": [{"probability": probability, "use_probability": on}]}}

    for probability in (0, 1, 99, 100, 100.5, 101, 150):
        written_as_none = _chance({"probability": probability, "use_probability": True}) is None
        assert written_as_none == (probability >= 100)
        assert written_as_none == bool(sure_chances(book(probability, True), book(100, False))), probability
    assert sure_chances(book(150, True), book(100, False)) == {
        "/body/entries/0/use_probability",
        "/body/entries/0/probability",
    }
    assert sure_chances(book(100, True), book(100, False)) == {"/body/entries/0/use_probability"}


def test_an_activation_percent_past_100_reads_as_sure_and_goes_back_as_it_was():
    _adapter, decoded, media = read(export(entry(activationPercent=150)), "l.json")
    (canonical,) = decoded.pieces[0].body.entries
    assert (canonical.use_probability, canonical.probability) == (True, 100)
    assert risu_load(entry(activationPercent=150)) == 100  # as RisuAI acts on it: it never misses
    crossing = convert_piece(decoded.pieces[0], "risu.lorebook", media)
    assert json.loads(crossing.data)["data"][0]["activationPercent"] == 150
    assert crossing.losses == []
