"""Every kind publishes a described JSON Schema, accepts a minimal piece and refuses bad input."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bunzai.model import KIND_NAMES, dump_piece, json_schema, parse_piece, piece_class

HOSTILE_IDS = ["../x", "/abs", "a\x00b", "CON", "con", "nul.txt", "a" * 300, ".", "..", "Ada", "", "x.", "\u0430da"]


def properties_without_description(schema: dict) -> list[str]:
    """Every `properties` entry, in the schema and its $defs, that lacks a description."""
    definitions = schema.get("$defs", {})
    missing = []
    for owner, definition in [("<root>", schema), *definitions.items()]:
        for name, prop in definition.get("properties", {}).items():
            # pydantic drops a field description equal to its model's docstring: the $ref carries it.
            target = definitions.get(prop.get("$ref", "").rpartition("/")[2], {})
            if not (prop.get("description") or target.get("description")):
                missing.append(f"{owner}.{name}")
    return missing


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_schema_is_a_dict_whose_every_field_is_described(kind):
    schema = json_schema(kind)
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert {"kind", "id", "name", "body"} <= set(schema["properties"])
    assert schema["properties"]["kind"]["const"] == kind
    assert properties_without_description(schema) == []


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_schema_forbids_unknown_keys_everywhere(kind):
    schema = json_schema(kind)
    for name, definition in schema.get("$defs", {}).items():
        if definition.get("type") == "object" and "properties" in definition:
            assert definition.get("additionalProperties") is False, name


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_a_minimal_piece_validates(kind):
    piece = parse_piece({"kind": kind, "id": "ada", "name": "Ada"})
    assert isinstance(piece, piece_class(kind))
    assert piece.id == "ada"


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_unknown_keys_are_refused_at_the_top_and_in_the_body(kind):
    with pytest.raises(ValidationError):
        parse_piece({"kind": kind, "id": "ada", "name": "Ada", "colour": "red"})
    with pytest.raises(ValidationError):
        parse_piece({"kind": kind, "id": "ada", "name": "Ada", "body": {"no_such_field": 1}})


@pytest.mark.parametrize("kind", KIND_NAMES)
@pytest.mark.parametrize("bad_id", HOSTILE_IDS, ids=repr)
def test_hostile_ids_are_refused(kind, bad_id):
    with pytest.raises(ValidationError):
        parse_piece({"kind": kind, "id": bad_id, "name": "Ada"})


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_a_piece_of_one_kind_does_not_validate_as_another(kind):
    other = KIND_NAMES[(KIND_NAMES.index(kind) + 1) % len(KIND_NAMES)]
    with pytest.raises(ValidationError):
        piece_class(other).model_validate({"kind": kind, "id": "ada", "name": "Ada"})


@pytest.mark.parametrize(
    ("kind", "body"),
    [
        ("character", {"media": {"pack": "../sprites"}}),
        ("character", {"links": {"lorebooks": ["Eldoria"]}}),
        ("persona", {"lorebook": "/etc/passwd"}),
        ("promptbook", {"phases": [{"id": "reply", "stage": "reply", "preset": "CON"}]}),
        ("quickreply", {"items": [{"context_list": [{"set": "a/b"}]}]}),
        ("pack", {"items": [{"id": ".."}]}),
    ],
)
def test_references_to_other_pieces_must_be_safe_ids(kind, body):
    with pytest.raises(ValidationError):
        parse_piece({"kind": kind, "id": "ada", "name": "Ada", "body": body})


def test_nan_and_infinity_are_refused_because_json_cannot_hold_them():
    for value in (float("nan"), float("inf")):
        with pytest.raises(ValidationError):
            parse_piece({"kind": "preset", "id": "p", "name": "P", "body": {"samplers": {"temperature": value}}})


def test_dump_is_plain_json():
    piece = parse_piece({"kind": "character", "id": "ada", "name": "Ada", "body": {"settings": {"bias": [["x", 2]]}}})
    assert dump_piece(piece)["body"]["settings"]["bias"] == [["x", 2.0]]
