"""A SillyTavern world entry missing `probability` or `useProbability` reads as the scan runs it.

loadWorldInfo hands the file to the scan as it is; only the editor fills missing fields
(addMissingWorldInfoFields) when it shows the world. verifyProbability then skips the roll
when `!entry.useProbability` (absent: no roll, the entry fires) and otherwise rolls
`Math.random() * 100 <= entry.probability`, false for an absent one (never fires). The file
keeps its absent keys when it is written back.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece
from bunzai.render.lore import activate

WORLD = "sillytavern.world"
CHAT = [{"role": "user", "content": "a dragon"}]
_ABSENT = object()


def no_media(ref):
    raise AssertionError("no media here")


def world_piece(probability=_ABSENT, use_probability=_ABSENT):
    entry = {"uid": 0, "key": ["dragon"], "content": "Dragons sleep."}
    if probability is not _ABSENT:
        entry["probability"] = probability
    if use_probability is not _ABSENT:
        entry["useProbability"] = use_probability
    data = json.dumps({"entries": {"0": entry}}).encode()
    return get_adapter(WORLD).read(data, "Test.json", json.loads(data)).pieces[0]


def fires(piece, seeds=range(30)) -> set[bool]:
    body = piece.body.model_dump(mode="json")
    return {activate([{"id": "w", "body": body}], CHAT, seed=seed).entries[0]["fired"] for seed in seeds}


def written_after_an_edit(piece) -> dict:
    piece.body.entries[0].content = "edited"
    return json.loads(convert_piece(piece, WORLD, no_media).data)["entries"]["0"]


def test_an_absent_probability_with_use_probability_never_fires_and_stays_absent():
    piece = world_piece(use_probability=True)
    assert piece.body.entries[0].probability == 0 and piece.body.entries[0].use_probability
    assert fires(piece) == {False}
    written = written_after_an_edit(piece)
    assert "probability" not in written and written["useProbability"] is True and written["content"] == "edited"


@given(st.integers(0, 100), st.sampled_from([_ABSENT, None]))
def test_an_absent_or_null_use_probability_rolls_no_dice(probability: int, flag) -> None:
    piece = world_piece(probability, flag)
    assert piece.body.entries[0].use_probability is False
    assert fires(piece, range(3)) == {True}


def test_an_absent_use_probability_stays_absent_and_both_absent_fire():
    piece = world_piece(40)
    written = written_after_an_edit(piece)
    assert "useProbability" not in written and written["probability"] == 40
    bare = world_piece()
    assert fires(bare) == {True}
    written = written_after_an_edit(bare)
    assert "probability" not in written and "useProbability" not in written
