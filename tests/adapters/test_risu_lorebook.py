"""RisuAI lorebook exports: entries read, same-format round trips, unknown keys, crossings."""

from __future__ import annotations

import json

from cards_support import read
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.convert import convert_piece

ENTRY = {
    "key": "dragon, wyrm",
    "secondkey": "fire",
    "insertorder": 120,
    "comment": "Dragons",
    "content": "@@depth 2\nDragons breathe fire, {{user}}.",
    "mode": "normal",
    "alwaysActive": False,
    "selective": True,
    "extentions": {"risu_case_sensitive": True},
    "activationPercent": 40,
    "folder": "folder-1",
    "loreCache": {"key": "x", "data": []},
}
FOLDER = {
    "key": "",
    "secondkey": "",
    "insertorder": 100,
    "comment": "Places",
    "content": "",
    "mode": "folder",
    "alwaysActive": False,
    "selective": False,
    "bookVersion": 2,
}
REGEX = {
    "key": "/shadow(fang)?s?/i, /wolf/",
    "secondkey": "",
    "insertorder": 5,
    "comment": "Beasts",
    "content": "Beasts.",
    "mode": "normal",
    "alwaysActive": True,
    "selective": False,
    "useRegex": True,
}


def export(*entries) -> bytes:
    return json.dumps({"type": "risu", "ver": 1, "data": list(entries or (ENTRY, FOLDER, REGEX))}).encode()


def test_a_risu_lorebook_reads_its_entries_as_canonical_ones():
    adapter, decoded, _media = read(export(), "lorebook_export.json")
    assert adapter.format_id == "risu.lorebook"
    dragon, folder, beasts = decoded.pieces[0].body.entries
    assert [k.text for k in dragon.keys] == ["dragon", "wyrm"] and dragon.secondary_keys[0].text == "fire"
    assert (dragon.order, dragon.selective, dragon.case_sensitive) == (120, True, True)
    assert (dragon.probability, dragon.use_probability) == (40, True)
    assert dragon.content.startswith("@@depth 2\n")  # decorators kept as written
    # mode "normal" is RisuAI's default: it reads as no extension
    assert "mode" not in dragon.extensions["risuai"] and dragon.extensions["risuai"]["folder"] == "folder-1"
    assert folder.extensions["risuai"]["mode"] == "folder"
    # As RisuAI's searchMatch reads them: the opening / stays in the pattern, `/wolf/` (no flags) is skipped
    assert [(k.text, k.regex, k.flags) for k in beasts.keys] == [("/shadow(fang)?s?", True, "i")]
    assert beasts.constant
    [said] = decoded.warnings
    assert said.startswith("lore entry 2 ('Beasts'): RisuAI never matches /wolf/")


def test_a_same_format_round_trip_is_json_equal():
    _adapter, decoded, media = read(export(), "lorebook_export.json")
    crossing = convert_piece(decoded.pieces[0], "risu.lorebook", media)
    assert json.loads(crossing.data) == json.loads(export())
    assert [loss.code for loss in crossing.losses] == ["risu.name.file_name"] or crossing.losses == []


def test_an_edit_writes_only_its_field():
    _adapter, decoded, media = read(export(), "lorebook_export.json")
    piece = decoded.pieces[0]
    entries = [e.model_copy(update={"order": 7}) if e.uid == 0 else e for e in piece.body.entries]
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"entries": entries})})
    written = json.loads(convert_piece(piece, "risu.lorebook", media).data)
    expected = json.loads(export())
    expected["data"][0]["insertorder"] = 7
    assert written == expected


def test_a_crossing_from_a_sillytavern_style_book_names_what_risu_cannot_hold():
    from bunzai.model.lorebook import Lorebook

    piece = Lorebook(
        id="b",
        name="b",
        body={
            "entries": [{"uid": 0, "keys": ["a,b"], "position": "at_depth", "depth": 2, "sticky": 3, "enabled": False}]
        },
    )
    crossing = convert_piece(piece, "risu.lorebook", lambda ref: b"")
    codes = {(loss.pointer, loss.code) for loss in crossing.losses}
    assert ("/body/entries/0/keys", "risu.key.comma_split") in codes
    for field in ("position", "depth", "sticky", "enabled"):
        assert (f"/body/entries/0/{field}", "risu.entry.not_carried") in codes
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


_KEY = st.text("abcdefghij_", min_size=1, max_size=6).map(lambda key: "x_" + key)
_VALUE = st.one_of(st.integers(-5, 5), st.text(max_size=5), st.booleans(), st.none())


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(
    root=st.dictionaries(_KEY, _VALUE, max_size=3),
    entry=st.dictionaries(_KEY, _VALUE, max_size=3),
    inner=st.dictionaries(_KEY, _VALUE, max_size=3),
)
def test_unknown_keys_at_every_level_survive_a_same_format_round_trip(root, entry, inner):
    document = {
        "type": "risu",
        "ver": 1,
        "data": [ENTRY | entry | {"extentions": ENTRY["extentions"] | inner}, FOLDER],
    } | root
    _adapter, decoded, media = read(json.dumps(document).encode(), "book.json")
    crossing = convert_piece(decoded.pieces[0], "risu.lorebook", media)
    assert json.loads(crossing.data) == document
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def _entry_with(content: str) -> dict:
    return {**REGEX, "key": "wolf", "useRegex": False, "content": content}


def test_decorators_sillytavern_ignores_are_named_when_crossing_to_a_world():
    content = "@@depth 0\n@@role assistant\n@@probability 30\nDragons are big."
    entries = [_entry_with(content), _entry_with("@@activate\nAlways."), _entry_with("No decorators.")]
    data = json.dumps({"type": "risu", "ver": 1, "data": entries}, separators=(",", ":")).encode()  # as RisuAI does
    _adapter, decoded, media = read(data, "lorebook_export.json")
    crossing = convert_piece(decoded.pieces[0], "sillytavern.world", media)
    decorated = [loss for loss in crossing.losses if loss.code == "world.entry.decorators_ignored"]
    assert [(loss.pointer, loss.action) for loss in decorated] == [("/body/entries/0/content", "dropped")]
    assert "@@depth 0, @@role assistant, @@probability 30" in decorated[0].why
    written = json.loads(crossing.data)["entries"]["0"]
    assert written["content"] == content  # the text crosses as it is
    # The way back to RisuAI is unchanged: byte-equal to the export.
    assert convert_piece(decoded.pieces[0], "risu.lorebook", media).data == data


def test_a_world_that_came_with_its_decorators_loses_nothing_written_back():
    from bunzai.adapters.registry import get_adapter

    document = {"entries": {"0": {"uid": 0, "key": ["a"], "content": "@@depth 2\n@@@activate\nText."}}}
    raw = json.dumps(document).encode()
    piece = get_adapter("sillytavern.world").read(raw, "W.json", json.loads(raw)).pieces[0]
    crossing = convert_piece(piece, "sillytavern.world", lambda ref: b"")
    assert "world.entry.decorators_ignored" not in [loss.code for loss in crossing.losses]
    # The same content made here (no SillyTavern escrow) is named.
    fresh = convert_piece(piece.model_copy(update={"original": None}), "sillytavern.world", lambda ref: b"")
    [loss] = [loss for loss in fresh.losses if loss.code == "world.entry.decorators_ignored"]
    assert "@@depth 2" in loss.why and "@@@activate" not in loss.why
