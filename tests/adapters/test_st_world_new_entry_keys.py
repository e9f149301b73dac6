"""SillyTavern world: a new entry never takes the key of an entry written back over its escrow,
and free uids are found in one pass, so worlds of thousands of entries number quickly."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.adapters.registry import get_adapter
from bunzai.adapters.sillytavern.world import _native_uids
from bunzai.capabilities.discovery import find_capability
from bunzai.capabilities.runner import run_capability
from bunzai.convert import convert_piece
from bunzai.model.lorebook import Lorebook, LoreEntry
from testkit import corpus_path

WORLD = "sillytavern.world"


def read_world(document: dict, name: str = "W.json") -> Lorebook:
    data = json.dumps(document).encode()
    return get_adapter(WORLD).read(data, name, json.loads(data)).pieces[0]


def written(piece: Lorebook) -> tuple[dict, list[str]]:
    crossing = convert_piece(piece, WORLD, lambda ref: b"")
    return json.loads(crossing.data), [loss.code for loss in crossing.losses]


def test_an_entry_created_in_a_world_keyed_from_one_keeps_every_real_entry():
    # Eldoria's entries keyed 1..4 over their uids 0..3: the next uid (4) and the key "1" both exist.
    eldoria = json.loads(corpus_path("sillytavern", "worlds", "Eldoria.json").read_bytes())
    shifted = {"entries": {str(int(key) + 1): entry for key, entry in eldoria["entries"].items()}}
    piece = read_world(shifted, "Eldoria.json")
    assert [entry.uid for entry in piece.body.entries] == [0, 1, 2, 3]
    draft = run_capability(
        find_capability("lorebook.entries.create"),
        piece.model_dump(mode="json"),
        {"entries": [{"title": "river", "keys": ["river"], "content": "A river."}]},
        baseline="0" * 64,
    )
    document, losses = written(Lorebook.model_validate(draft["proposed"]))
    assert {key: entry for key, entry in document["entries"].items() if key in shifted["entries"]} == shifted["entries"]
    (new_key,) = set(document["entries"]) - set(shifted["entries"])
    new = document["entries"][new_key]
    assert new["comment"] == "river" and new["uid"] == int(new_key)
    assert new["uid"] not in [entry["uid"] for entry in shifted["entries"].values()]
    assert "world.entry.uid.renumbered" in losses  # uid 4 is a key already: the new entry is numbered anew


def test_a_text_uid_is_not_numbered_onto_the_key_of_a_kept_entry():
    piece = read_world({"entries": {"0": {"uid": 5, "key": ["a"], "comment": "kept"}}})
    piece.body.entries.append(LoreEntry(uid="intro", title="new", keys=[{"text": "b"}]))
    document, _ = written(piece)
    assert document["entries"]["0"]["comment"] == "kept"
    assert sorted(entry["comment"] for entry in document["entries"].values()) == ["kept", "new"]


world_keys = st.one_of(st.integers(0, 12).map(str), st.sampled_from(["a", "x", "-1", "007"]))
raw_uids = st.one_of(st.integers(0, 12), st.none(), st.sampled_from(["3", "b", 2.0]))
new_uids = st.one_of(st.integers(0, 15), st.text(alphabet="abc123", min_size=1, max_size=3))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    prior=st.dictionaries(world_keys, raw_uids, min_size=1, max_size=8),
    added=st.lists(new_uids, max_size=4, unique_by=str),
)
def test_writing_keeps_every_entry_of_the_book(prior, added):
    piece = read_world({"entries": {key: {"uid": uid, "comment": f"old {key}"} for key, uid in prior.items()}})
    taken = {str(entry.uid) for entry in piece.body.entries}
    for uid in (uid for uid in added if str(uid) not in taken):
        piece.body.entries.append(LoreEntry(uid=uid, title=f"new {uid}"))
    document, _ = written(piece)
    assert sorted(entry["comment"] for entry in document["entries"].values()) == sorted(
        entry.title for entry in piece.body.entries
    )
    fresh = [entry for entry in document["entries"].values() if entry["comment"].startswith("new ")]
    assert all(document["entries"][str(entry["uid"])] is entry for entry in fresh)


class CountingSet(set):
    probes = 0

    def __contains__(self, item) -> bool:
        CountingSet.probes += 1
        return super().__contains__(item)


def test_numbering_text_uids_probes_each_number_once():
    count = 3000
    CountingSet.probes = 0
    numbers = _native_uids([f"entry-{n}" for n in range(count)], CountingSet())
    assert numbers == list(range(count))
    assert CountingSet.probes <= 2 * count  # numbering each from 0 again probes count**2 / 2 times
