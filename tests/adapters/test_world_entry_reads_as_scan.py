"""A SillyTavern world entry reads as SillyTavern's scan runs it (world-info.js checkWorldInfo).

loadWorldInfo hands the scan the file as stored (only the editor fills missing fields in), so an
absent `selective` is not selective; flags are tested by JavaScript truthiness ("false" is true),
`disable` by `== true`, a null or absent per-entry match setting falls back to the global one,
and a `key` that is no array is no keys. Every stored value, odd or absent, is written back as
it was.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.adapters.registry import get_adapter
from bunzai.adapters.sillytavern.st_json import native_json_bytes
from bunzai.convert import convert_piece
from bunzai.model.lorebook import Lorebook, LorebookBody, LoreEntry
from bunzai.render.lore import activate

WORLD = "sillytavern.world"
_ABSENT = object()

# native key -> the canonical entry's value for it
FLAGS = {
    "constant": lambda e: e.constant,
    "vectorized": lambda e: e.vectorized,
    "selective": lambda e: e.selective,
    "ignoreBudget": lambda e: e.ignore_budget,
    "excludeRecursion": lambda e: e.exclude_recursion,
    "preventRecursion": lambda e: e.prevent_recursion,
    "matchPersonaDescription": lambda e: e.match_persona_description,
    "matchCharacterDescription": lambda e: e.match_character_description,
    "matchCharacterPersonality": lambda e: e.match_character_personality,
    "matchCharacterDepthPrompt": lambda e: e.match_character_depth_prompt,
    "matchScenario": lambda e: e.match_scenario,
    "matchCreatorNotes": lambda e: e.match_creator_notes,
    "groupOverride": lambda e: e.group.override,
    "useProbability": lambda e: e.use_probability,
}
SETTINGS = {
    "caseSensitive": lambda e: e.case_sensitive,
    "matchWholeWords": lambda e: e.match_whole_words,
    "useGroupScoring": lambda e: e.group.use_group_scoring,
}
# (stored value, JavaScript truthiness)
TRUTHINESS = [
    (True, True),
    (False, False),
    ("false", True),
    ("true", True),
    ("0", True),
    ("", False),
    (0, False),
    (1, True),
    (2, True),
    (0.0, False),
    (0.5, True),
    ([], True),
    ({}, True),
]


def no_media(ref):
    raise AssertionError("a world has no media")


def read_entry_doc(entry: dict) -> Lorebook:
    data = json.dumps({"entries": {"0": {"uid": 0, **entry}}}).encode()
    return get_adapter(WORLD).read(data, "Test.json", json.loads(data)).pieces[0]


def written_after_an_edit(piece: Lorebook) -> dict:
    piece.body.entries[0].content = "edited"
    return json.loads(convert_piece(piece, WORLD, no_media).data)["entries"]["0"]


def same_json(written, stored) -> bool:
    """Equal as JSON values (0.0 is written 0, as JavaScript writes it), a bool never equal to 1."""
    return written == stored and isinstance(written, bool) == isinstance(stored, bool)


def fired(piece: Lorebook, chat: list[dict]) -> bool:
    body = piece.body.model_dump(mode="json")
    return activate([{"id": "w", "body": body}], chat, seed=0).entries[0]["fired"]


@pytest.mark.parametrize("stored", [_ABSENT, None])
def test_an_entry_without_selective_ignores_its_secondary_keys(stored):
    entry = {"key": ["dragon"], "keysecondary": ["castle"], "content": "Dragons sleep."}
    if stored is not _ABSENT:
        entry["selective"] = stored
    piece = read_entry_doc(entry)
    assert piece.body.entries[0].selective is False  # `entry.selective && ...`: no secondary filter
    assert fired(piece, [{"role": "user", "content": "a dragon"}])  # no "castle", still fires
    written = written_after_an_edit(piece)
    assert written.get("selective", "absent") == ("absent" if stored is _ABSENT else None)
    assert written["content"] == "edited"


@pytest.mark.parametrize("native", sorted(FLAGS))
@pytest.mark.parametrize(("stored", "truth"), TRUTHINESS)
def test_a_flag_reads_by_javascript_truthiness_and_is_kept_as_written(native, stored, truth):
    piece = read_entry_doc({"key": ["k"], native: stored})
    assert FLAGS[native](piece.body.entries[0]) is truth
    written = written_after_an_edit(piece)
    assert same_json(written[native], stored)


@pytest.mark.parametrize("native", sorted(FLAGS))
def test_an_absent_flag_reads_false_and_stays_absent(native):
    piece = read_entry_doc({"key": ["k"]})
    assert FLAGS[native](piece.body.entries[0]) is False
    assert native not in written_after_an_edit(piece)


@pytest.mark.parametrize("native", sorted(SETTINGS))
@pytest.mark.parametrize(("stored", "truth"), [(_ABSENT, None), (None, None), *TRUTHINESS])
def test_a_match_setting_null_or_absent_is_the_global_one_else_truthiness(native, stored, truth):
    # `entry.caseSensitive ?? world_info_case_sensitive`: only null and absent fall back
    piece = read_entry_doc({"key": ["k"]} if stored is _ABSENT else {"key": ["k"], native: stored})
    assert SETTINGS[native](piece.body.entries[0]) is truth
    written = written_after_an_edit(piece)
    assert same_json(written[native], stored) if stored is not _ABSENT else native not in written


@pytest.mark.parametrize(
    ("stored", "enabled"),
    [
        (_ABSENT, True),
        (None, True),
        (False, True),
        (True, False),
        (1, False),
        (1.0, False),
        ("1", False),
        (" 1 ", False),
        ("1e0", False),
        ("0x1", False),
        ("true", True),  # `"true" == true` is false: the scan fires it
        ("false", True),
        (2, True),
        (0, True),
        ("", True),
        ([], True),
    ],
)
def test_disable_reads_as_the_scans_loose_equality_with_true(stored, enabled):
    piece = read_entry_doc({"key": ["k"]} if stored is _ABSENT else {"key": ["k"], "disable": stored})
    assert piece.body.entries[0].enabled is enabled
    written = written_after_an_edit(piece)
    assert same_json(written["disable"], stored) if stored is not _ABSENT else "disable" not in written


@pytest.mark.parametrize(("stored", "truth"), TRUTHINESS)
def test_a_character_filters_is_exclude_reads_by_truthiness(stored, truth):
    native = {"isExclude": stored, "names": ["Seraphina"], "tags": []}
    piece = read_entry_doc({"key": ["k"], "characterFilter": native})
    assert piece.body.entries[0].character_filter.exclude is truth
    assert written_after_an_edit(piece)["characterFilter"] == native


@pytest.mark.parametrize("field", ["key", "keysecondary"])
@pytest.mark.parametrize("stored", ["dragon", 7, {"0": "dragon"}])
def test_keys_that_are_no_array_are_no_keys_and_are_kept(field, stored):
    piece = read_entry_doc({"key": ["k"], field: stored})
    entry = piece.body.entries[0]
    assert (entry.keys if field == "key" else entry.secondary_keys) == []
    assert written_after_an_edit(piece)[field] == stored


def _full_entry() -> dict:
    """Every key SillyTavern writes for an entry, with values other than the defaults."""
    book = Lorebook(
        id="w",
        name="w",
        body=LorebookBody(entries=[LoreEntry(uid=0, title="t", keys=["a"], secondary_keys=["b"], content="c")]),
    )
    return json.loads(convert_piece(book, WORLD, no_media).data)["entries"]["0"]


FULL = _full_entry()
ODD = st.sampled_from(["false", "", 0, 1, "1", None, "true", [], 2])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    removed=st.sets(st.sampled_from(sorted(set(FULL) - {"uid"}))),
    odd=st.dictionaries(st.sampled_from(sorted(set(FLAGS) | set(SETTINGS) | {"disable"})), ODD, max_size=4),
    edit=st.booleans(),
)
def test_any_sparse_or_odd_entry_writes_back_as_it_was(removed, odd, edit):
    entry = {key: value for key, value in {**FULL, **odd}.items() if key not in removed}
    document = {"entries": {"0": entry}}
    data = native_json_bytes(document)
    piece = get_adapter(WORLD).read(data, "w.json", json.loads(data)).pieces[0]
    if edit:
        piece.body.entries[0].content = "edited"
        entry["content"] = "edited"
    crossing = convert_piece(piece, WORLD, no_media)
    assert crossing.data == native_json_bytes(document)  # byte-equal: absent keys stay absent
    assert {loss.code for loss in crossing.losses} <= {"world.name.file_stem"}
