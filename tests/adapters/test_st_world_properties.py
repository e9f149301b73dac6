"""Properties of the SillyTavern world format: unknown keys survive, and every loss is declared."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece
from bunzai.model.lorebook import Lorebook, LorebookBody, LoreEntry

WORLD = "sillytavern.world"
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
# Unknown keys never collide with a key the format names: they carry a prefix no format uses.
unknown_keys = st.dictionaries(st.text(min_size=1, max_size=8).map(lambda s: "zz_" + s), json_values, max_size=3)


def _entry(uid: int, extra: dict) -> dict:
    return {"uid": uid, "key": ["k"], "content": f"entry {uid}", "position": uid % 8, "role": None, **extra}


@PROPERTY
@given(root=unknown_keys, per_entry=st.lists(unknown_keys, min_size=1, max_size=4), edit=st.booleans())
def test_unknown_keys_at_root_and_in_entries_survive_a_same_format_round_trip(root, per_entry, edit):
    document = {"entries": {str(uid): _entry(uid, extra) for uid, extra in enumerate(per_entry)}, **root}
    data = json.dumps(document).encode()
    piece = get_adapter(WORLD).read(data, "w.json", json.loads(data)).pieces[0]
    if edit:
        piece.body.entries[0].content = "edited"
        document["entries"]["0"]["content"] = "edited"
    written = json.loads(convert_piece(piece, WORLD, lambda ref: b"").data)
    assert written == document


keys = st.builds(
    lambda text, regex, flags: {"text": text, "regex": regex, "flags": flags if regex else ""},
    st.text(min_size=1, max_size=6),
    st.booleans(),
    st.sampled_from(["", "i", "gi", "v", "s"]),
)
entries = st.builds(
    lambda uid, **fields: LoreEntry(uid=uid, **fields),
    uid=st.integers(0, 50) | st.text(min_size=1, max_size=4),
    keys=st.lists(keys, max_size=3),
    position=st.sampled_from(
        ["before_char", "after_char", "an_top", "an_bottom", "at_depth", "em_top", "em_bottom", "outlet"]
    ),
    selective_logic=st.sampled_from(["and_any", "not_all", "not_any", "and_all"]),
    role=st.sampled_from(["system", "user", "assistant"]),
    sticky=st.none() | st.integers(0, 9),
    delay_until_recursion=st.booleans() | st.integers(0, 5),
    priority=st.none() | st.integers(0, 9),
    group=st.builds(dict, names=st.lists(st.text(max_size=5), max_size=2), weight=st.integers(0, 200)),
    triggers=st.lists(st.sampled_from(["normal", "swipe", "quiet"]), unique=True),
    character_filter=st.none() | st.builds(dict, exclude=st.booleans(), names=st.lists(st.text(max_size=4))),
)


def _unique_uids(items: list[LoreEntry]) -> list[LoreEntry]:
    seen, out = set(), []
    for item in items:
        if str(item.uid) not in seen:
            seen.add(str(item.uid))
            out.append(item)
    return out


@PROPERTY
@given(st.lists(entries, max_size=4).map(_unique_uids), st.text(max_size=6))
def test_a_canonical_book_crossing_into_a_world_declares_every_loss(items, description):
    book = Lorebook(id="book", name="Book", body=LorebookBody(description=description, entries=items))
    crossing = convert_piece(book, WORLD, lambda ref: b"")
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


@PROPERTY
@given(
    st.lists(
        st.tuples(
            st.integers(0, 6).map(str) | st.sampled_from(["a", "b"]),
            st.none() | st.integers(-2, 6) | st.text(alphabet="ab12", max_size=2),
        ),
        max_size=12,
    )
)
def test_entry_uids_are_unique_and_an_own_free_uid_is_kept(rows):
    document = {"entries": {key: {"uid": uid} for key, uid in rows}}  # a repeated key: the last one, as JSON keeps it
    piece = get_adapter(WORLD).read(json.dumps(document).encode(), "w.json", document).pieces[0]
    read = [entry.uid for entry in piece.body.entries]
    assert len({str(uid) for uid in read}) == len(read) == len(document["entries"])
    taken: set[str] = set()
    for (key, raw), uid in zip(document["entries"].items(), read):
        own = int(raw["uid"]) if isinstance(raw["uid"], str) and raw["uid"].isdigit() else raw["uid"]
        by_key = int(key) if key.isdigit() else key
        if isinstance(own, int) and str(own) not in taken:
            assert uid == own  # its own uid, free
        elif str(by_key) not in taken:
            assert uid == by_key  # else its object key, free
        else:
            assert isinstance(uid, int) and all(str(lower) in taken for lower in range(uid))  # else the lowest free
        taken.add(str(uid))
