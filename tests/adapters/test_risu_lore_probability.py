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
    """Read, set each entry's chance (or none), write: RisuAI's load gives every entry that chance,
    unless it is 0 and the entry's own activationPercent does not already give 0 (a negative one
    does), which is named."""
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
            assert risu_load(native) == chance and not named
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def test_a_negative_chance_risuai_acts_on_as_zero_goes_back_without_a_loss():
    # activationPercent -1 is truthy: RisuAI's load makes it @@probability -1, which never fires
    _adapter, decoded, media = read(export(entry(activationPercent=-1)), "l.json")
    (canonical,) = decoded.pieces[0].body.entries
    assert (canonical.use_probability, canonical.probability) == (True, 0)
    crossing = convert_piece(decoded.pieces[0], "risu.lorebook", media)
    assert json.loads(crossing.data)["data"][0]["activationPercent"] == -1
    assert crossing.losses == []
