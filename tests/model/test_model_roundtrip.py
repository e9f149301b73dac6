"""Every kind survives canonical JSON: piece -> sorted JSON text -> piece is the identity."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from model_strategies import pieces

from bunzai.model import KIND_NAMES, dump_piece, parse_piece
from bunzai.model.base import _collect_refs

ROUNDTRIP = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def canonical_text(piece) -> str:
    return json.dumps(dump_piece(piece), sort_keys=True)


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_every_kind_round_trips_through_canonical_json(kind):
    @ROUNDTRIP
    @given(pieces(kind))
    def round_trip(piece):
        text = canonical_text(piece)
        again = parse_piece(json.loads(text))
        assert again == piece
        assert canonical_text(again) == text

    round_trip()


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_dump_holds_every_field_with_defaults(kind):
    document = dump_piece(parse_piece({"kind": kind, "id": "ada", "name": "Ada"}))
    assert {"kind", "id", "name", "body", "profiles", "assets", "original"} <= set(document)
    assert document["kind"] == kind


@ROUNDTRIP
@given(pieces("character"))
def test_asset_refs_finds_the_portrait(character):
    refs = {ref.sha256 for ref in character.asset_refs()}
    if character.body.portrait is not None:
        assert character.body.portrait.sha256 in refs


def every_ref(value) -> list:
    """The refs asset_refs finds when the walk enters every field of every model."""
    seen: dict = {}
    _collect_refs(value, seen, lambda cls: tuple(cls.model_fields))
    return list(seen.values())


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_asset_refs_leaves_out_only_fields_without_refs(kind):
    @ROUNDTRIP
    @given(pieces(kind))
    def same_refs(piece):
        assert piece.asset_refs() == every_ref(piece)

    same_refs()


@given(st.sampled_from(KIND_NAMES))
def test_unknown_kind_is_a_key_error(kind):
    with pytest.raises(KeyError):
        parse_piece({"kind": kind + "x", "id": "a", "name": "A"})
