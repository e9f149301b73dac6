"""model/built.py: a model built from values of its types, as validating them would make it."""

from __future__ import annotations

import pytest
from pydantic import PrivateAttr

from bunzai.model.base import Model
from bunzai.model.built import built
from bunzai.model.character import Character
from bunzai.model.lorebook import LorebookBody


def test_a_built_model_equals_the_validated_one_field_for_field_in_order() -> None:
    values = {"name": "Ada", "id": "ada", "body": {"description": "x", "tags": ["a"], "links": {"lorebooks": ["w"]}}}
    made, validated = built(Character, values), Character.model_validate(values)
    assert made == validated
    assert list(made.__dict__) == list(validated.__dict__)  # the field order dumps keep
    assert list(made.body.__dict__) == list(validated.body.__dict__)
    assert made.model_dump_json() == validated.model_dump_json()


def test_each_build_makes_its_own_defaults() -> None:
    first, second = built(LorebookBody, {}), built(LorebookBody, {})
    assert first == second == LorebookBody()
    assert first.entries is not second.entries and first.settings is not second.settings


def test_a_model_given_is_kept_and_a_dict_is_built() -> None:
    book = LorebookBody(description="kept")
    made = built(Character, {"id": "ada", "name": "Ada", "body": {"book": {"name": "b", "entries": [{"uid": 1}]}}})
    assert made.body.book.entries[0].uid == 1 and made.body.book.entries[0].group.weight == 100
    assert built(LorebookBody, {"entries": [], "settings": book.settings}).settings is book.settings


def test_a_missing_required_field_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="id"):
        built(Character, {"name": "Ada"})


def test_a_model_with_private_attributes_is_not_built() -> None:
    class Private(Model):
        _cache: dict = PrivateAttr(default_factory=dict)

    with pytest.raises(TypeError, match="private attributes"):
        built(Private, {})
