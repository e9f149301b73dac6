"""Cards, Lorebook V3 files, SillyTavern worlds, RisuAI and Marinara lorebooks and Agnai memory books are built
from what their field mappings read, without validation
(bunzai/model/built.py): a mapping must give values that validation would keep as they are.
Every piece read from such a file, real or generated with hostile values in every field it maps,
is held to that (testkit.assert_valid_as_built): validated again from its dump, it is equal to
the piece built, and it shares no list or dict with the document it was read from. (Every other
reader is held to it under mutation too: tests/fuzzkit.py.)"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.adapters.common import card_fields
from bunzai.adapters.sillytavern.world_entry import ENTRY_FIELDS
from bunzai.adapters.inspect import read_bytes
from testkit import assert_valid_as_built, corpus_path, v2_card_png


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**64), 2**64),
    st.sampled_from([0, 1, -1, 4, 100, 101, 1_700_000_000, 1_700_000_000_000, 2**53 + 1, 0.5, -0.5, 1.5, 1e300]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", " ", "a, b,,c ", "true", "False", "0.7", "-3", "2", "system", " User", "x", "/re/gi"]),
    st.sampled_from(["before_char", "at_depth", "outlet", "and_all", "normal", "quiet", "0x1F", "1e3", "∞"]),
    st.text(max_size=8),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
CARD_KEYS = tuple(key for key, _read in card_fields._PLAIN.values()) + ("name", "character_book", "assets")
EXTENSION_KEYS = ("depth_prompt", "talkativeness", "fav", "world", "regex_scripts", "app")
ENTRY_KEYS = (
    "id", "keys", "secondary_keys", "comment", "name", "content", "enabled", "constant", "selective",
    "insertion_order", "priority", "position", "case_sensitive", "use_regex", "extensions",
)  # fmt: skip
ENTRY_EXTENSION_KEYS = (
    "selectiveLogic", "vectorized", "depth", "role", "outlet_name", "probability", "useProbability", "group",
    "group_override", "group_weight", "use_group_scoring", "sticky", "cooldown", "delay", "exclude_recursion",
    "prevent_recursion", "delay_until_recursion", "scan_depth", "match_whole_words", "triggers",
    "ignore_budget", "match_persona_description", "automation_id", "display_index", "characterFilter",
    "case_sensitive",
)  # fmt: skip


def _object(keys: tuple[str, ...], inner=JSON):
    return st.dictionaries(st.sampled_from(keys), inner, max_size=len(keys))


ENTRIES = st.lists(
    st.one_of(
        _object(ENTRY_KEYS).flatmap(
            lambda entry: _object(ENTRY_EXTENSION_KEYS).map(
                lambda ext: entry | {"extensions": ext} if "extensions" not in entry else entry
            )
        ),
        JSON,
    ),
    max_size=4,
)
BOOKS = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"entries": ENTRIES},
        optional={"name": JSON, "description": JSON, "scan_depth": JSON, "token_budget": JSON, "extensions": JSON},
    ),
)
DATA = _object(CARD_KEYS).flatmap(
    lambda data: st.tuples(st.just(data), _object(EXTENSION_KEYS), BOOKS).map(
        lambda parts: parts[0] | {"extensions": parts[1], "character_book": parts[2]}
    )
)


def _pieces(data: dict, spec: str) -> list:
    card = {"spec": spec, "spec_version": "3.0" if spec == "chara_card_v3" else "2.0", "data": data}
    text = json.dumps(card, allow_nan=False).encode()
    try:
        _adapter, decoded = read_bytes(text, "card.json")
    except Exception as error:  # noqa: BLE001 - a coded refusal is an answer; anything else fails below
        assert getattr(error, "code", None) is not None, repr(error)
        return []
    return decoded.pieces


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DATA, st.sampled_from(["chara_card_v2", "chara_card_v3"]))
def test_every_piece_read_from_a_generated_card_is_valid_as_built(data: dict, spec: str) -> None:
    for piece in _pieces(data, spec):
        assert_valid_as_built(piece)


@settings(max_examples=60, deadline=None)
@given(DATA)
def test_every_piece_read_from_a_generated_png_card_is_valid_as_built(data: dict) -> None:
    _adapter, decoded = read_bytes(v2_card_png("Ada", more=data), "ada.png")
    for piece in decoded.pieces:
        assert_valid_as_built(piece)


@pytest.mark.parametrize(
    "parts",
    [
        ("sillytavern", "characters", "default_Seraphina.png"),
        ("sillytavern", "characters", "default_Seraphina.v2-only.png"),
        ("sillytavern", "characters", "extracted", "seraphina.ccv3.json"),
        ("sillytavern", "characters", "extracted", "seraphina.chara.json"),
        ("sillytavern", "characters", "extracted", "seraphina.v2-only.chara.json"),
        ("card-architect", "test-card.json"),
        ("card-architect", "test-ccv2-amanda.json"),
        ("card-architect", "test-ccv3-jem.json"),
        ("backyard-byaf", "legacy-backyard-v4.png"),
        ("backyard-byaf", "legacy-faraday-v1.png"),
    ],
)
def test_every_piece_read_from_a_real_card_is_valid_as_built(parts: tuple[str, ...]) -> None:
    path = corpus_path(*parts)
    _adapter, decoded = read_bytes(path.read_bytes(), path.name)
    assert decoded.pieces
    for piece in decoded.pieces:
        assert_valid_as_built(piece)


WORLD_KEYS = tuple(sorted({row.native for row in ENTRY_FIELDS.rows if isinstance(row.native, str)})) + ("uid", "x")
WORLDS = st.one_of(
    st.dictionaries(st.text(max_size=3), _object(WORLD_KEYS), max_size=4),
    st.dictionaries(st.sampled_from(["0", "1", "2"]), _object(WORLD_KEYS, SCALARS), max_size=3),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(WORLDS, st.one_of(st.none(), _object(("name", "description", "extensions", "originalData"))))
def test_every_piece_read_from_a_generated_world_is_valid_as_built(entries: dict, more: dict | None) -> None:
    world = {"entries": entries} | (more or {})
    _adapter, decoded = read_bytes(json.dumps(world, allow_nan=False).encode(), "Eldoria.json", "sillytavern.world")
    for piece in decoded.pieces:
        assert_valid_as_built(piece)


def test_every_piece_read_from_a_real_world_is_valid_as_built() -> None:
    for name in ("Eldoria.json", "Eldoria.pre-2024-09.json"):
        path = corpus_path("sillytavern", "worlds", name)
        _adapter, decoded = read_bytes(path.read_bytes(), path.name)
        assert decoded.pieces and decoded.pieces[0].body.entries
        assert_valid_as_built(decoded.pieces[0])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BOOKS)
def test_every_piece_read_from_a_generated_lorebook_v3_is_valid_as_built(book) -> None:
    text = json.dumps({"spec": "lorebook_v3", "data": book}, allow_nan=False).encode()
    _adapter, decoded = read_bytes(text, "book.json", "lorebook_v3.json")
    for piece in decoded.pieces:
        assert_valid_as_built(piece)


def _read_generated(document: dict, name: str, format_id: str) -> list:
    text = json.dumps(document, allow_nan=False).encode()
    try:
        _adapter, decoded = read_bytes(text, name, format_id)
    except Exception as error:  # noqa: BLE001 - a coded refusal is an answer; anything else fails here
        assert getattr(error, "code", None) is not None, repr(error)
        return []
    return decoded.pieces


RISU_ENTRY_KEYS = (
    "key", "secondkey", "insertorder", "comment", "content", "alwaysActive", "selective", "activationPercent",
    "useRegex", "mode", "folder", "id", "bookVersion", "extentions", "x",
)  # fmt: skip
RISU_EXTENTIONS = _object(("risu_case_sensitive", "risuai", "depth", "position", "app", "x"))
RISU_ENTRIES = st.lists(
    st.one_of(
        _object(RISU_ENTRY_KEYS).flatmap(lambda entry: RISU_EXTENTIONS.map(lambda ext: entry | {"extentions": ext})),
        _object(RISU_ENTRY_KEYS),
        JSON,
    ),
    max_size=4,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(RISU_ENTRIES)
def test_every_piece_read_from_a_generated_risu_lorebook_is_valid_as_built(entries: list) -> None:
    for piece in _read_generated({"type": "risu", "ver": 1, "data": entries}, "lore.json", "risu.lorebook"):
        assert_valid_as_built(piece)


AGNAI_ENTRY_KEYS = (
    "name", "entry", "keywords", "priority", "weight", "enabled", "secondaryKeys", "constant", "position",
    "probability", "useProbability", "selective", "selectiveLogic", "excludeRecursion", "id", "x",
)  # fmt: skip
AGNAI_BOOKS = st.fixed_dictionaries(
    {"kind": st.just("memory"), "entries": st.lists(st.one_of(_object(AGNAI_ENTRY_KEYS), JSON), max_size=4)},
    optional={
        key: JSON for key in ("name", "description", "scanDepth", "tokenBudget", "recursiveScanning", "extensions")
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(AGNAI_BOOKS)
def test_every_piece_read_from_a_generated_agnai_memory_book_is_valid_as_built(book: dict) -> None:
    for piece in _read_generated(book, "memory.json", "agnai.memory.json"):
        assert_valid_as_built(piece)


MARINARA_ENTRY_KEYS = (
    "id", "name", "keys", "secondaryKeys", "selective", "selectiveLogic", "content", "enabled", "constant", "order",
    "position", "depth", "role", "probability", "group", "groupWeight", "sticky", "cooldown", "delay",
    "preventRecursion", "scanDepth", "caseSensitive", "matchWholeWords", "additionalMatchingSources", "useRegex",
)  # fmt: skip
MARINARA_BOOK_KEYS = ("name", "description", "scanDepth", "tokenBudget", "recursiveScanning", "maxRecursionDepth")
MARINARA_DATA = st.fixed_dictionaries(
    {
        "lorebook": _object(MARINARA_BOOK_KEYS),
        "entries": st.one_of(st.lists(st.one_of(_object(MARINARA_ENTRY_KEYS), JSON), max_size=4), JSON),
    }
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MARINARA_DATA)
def test_every_piece_read_from_a_generated_marinara_lorebook_is_valid_as_built(data: dict) -> None:
    envelope = {"type": "marinara_lorebook", "version": 1, "exportedAt": "2026-05-05T10:00:00.000Z", "data": data}
    for piece in _read_generated(envelope, "lore.marinara.json", "marinara.lorebook"):
        assert_valid_as_built(piece)
