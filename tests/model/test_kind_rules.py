"""The per-kind promises: key shorthand, unique ids, variant inheritance, pack references."""

from __future__ import annotations

import typing

import pytest
from pydantic import ValidationError

from bunzai.model import parse_piece
from bunzai.model.character import CharacterVariant, VariantField, VariantOverrides

SHA = "ab" * 32


def piece(kind: str, body: dict, name: str = "Ada"):
    return parse_piece({"kind": kind, "id": "ada", "name": name, "body": body})


def refused(kind: str, body: dict) -> str:
    with pytest.raises(ValidationError) as caught:
        piece(kind, body)
    return str(caught.value)


# --- lorebook ---------------------------------------------------------------------------


def test_a_plain_string_key_is_a_literal_key():
    regex_key = {"text": "wyrm(s)?", "regex": True, "flags": "i"}
    book = piece("lorebook", {"entries": [{"uid": 1, "keys": ["dragon", regex_key]}]})
    keys = book.body.entries[0].keys
    assert (keys[0].text, keys[0].regex) == ("dragon", False)
    assert (keys[1].text, keys[1].regex, keys[1].flags) == ("wyrm(s)?", True, "i")


def test_regex_key_flags_are_javascript_flags():
    refused("lorebook", {"entries": [{"keys": [{"text": "x", "regex": True, "flags": "q"}]}]})


def test_entry_uids_are_unique_and_1_equals_the_string_1():
    assert "uid" in refused("lorebook", {"entries": [{"uid": 1}, {"uid": "1"}]})


def test_entry_settings_default_to_the_book_and_global_settings():
    entry = piece("lorebook", {"entries": [{}]}).body.entries[0]
    assert (entry.scan_depth, entry.case_sensitive, entry.match_whole_words) == (None, None, None)
    assert (entry.order, entry.depth, entry.probability, entry.position) == (100, 4, 100, "before_char")


def test_delay_until_recursion_keeps_bool_and_level_apart():
    entries = piece(
        "lorebook", {"entries": [{"uid": 0, "delay_until_recursion": True}, {"uid": 1, "delay_until_recursion": 2}]}
    ).body.entries
    assert entries[0].delay_until_recursion is True
    assert entries[1].delay_until_recursion == 2 and entries[1].delay_until_recursion is not True


def test_a_character_embeds_a_named_lorebook_body():
    card = piece("character", {"book": {"name": "Eldoria", "entries": [{"uid": 0, "keys": ["forest"]}]}})
    assert card.body.book.name == "Eldoria"
    assert card.body.book.entries[0].keys[0].text == "forest"


# --- character variants ----------------------------------------------------------------


def test_variant_fields_and_overrides_agree():
    assert set(typing.get_args(VariantField)) == set(VariantOverrides.model_fields) - {"name"}


def test_an_overlay_variant_inherits_everything_it_does_not_override():
    card = piece(
        "character",
        {
            "description": "tall",
            "scenario": "a forest",
            "variants": [{"id": "winter", "overrides": {"scenario": "snow", "name": "Ada in winter"}}],
        },
    )
    name, body = card.variant("winter")
    assert (name, body.description, body.scenario, body.variants) == ("Ada in winter", "tall", "snow", [])


def test_a_standalone_variant_takes_only_what_it_inherits():
    child = {
        "id": "child",
        "mode": "standalone",
        "inherit": ["personality", "portrait"],
        "overrides": {"description": "small"},
    }
    portrait = {"sha256": SHA, "ext": "png"}
    card = piece("character", {"description": "tall", "personality": "kind", "portrait": portrait, "variants": [child]})
    name, body = card.variant("child")
    assert (name, body.description, body.personality) == ("Ada", "small", "kind")
    assert body.portrait.sha256 == SHA
    assert body.scenario == ""


def test_an_overlay_variant_may_not_list_inherited_fields():
    refused("character", {"variants": [{"id": "v", "inherit": ["description"]}]})


def test_a_field_is_not_both_inherited_and_overridden():
    message = refused(
        "character",
        {
            "variants": [
                {"id": "v", "mode": "standalone", "inherit": ["description"], "overrides": {"description": "x"}}
            ]
        },
    )
    assert "description" in message


def test_variant_ids_are_unique_and_safe():
    refused("character", {"variants": [{"id": "v"}, {"id": "v"}]})
    refused("character", {"variants": [{"id": "../v"}]})


def test_an_unknown_variant_is_a_key_error():
    with pytest.raises(KeyError):
        piece("character", {}).variant("nope")


def test_variant_overrides_carry_their_assets():
    card = piece("character", {"variants": [{"id": "v", "overrides": {"portrait": {"sha256": SHA, "ext": "png"}}}]})
    assert [ref.sha256 for ref in card.asset_refs()] == [SHA]
    assert isinstance(card.body.variants[0], CharacterVariant)


# --- other kinds -----------------------------------------------------------------------


def test_pack_default_face_and_groups_must_name_existing_items():
    items = [{"id": "joy-1", "label": "joy"}, {"id": "neutral", "label": "neutral"}]
    piece("pack", {"items": items, "default_face": "neutral", "groups": [{"name": "main", "items": ["joy-1"]}]})
    refused("pack", {"items": items, "default_face": "anger"})
    refused("pack", {"items": items, "groups": [{"name": "main", "items": ["ghost"]}]})
    refused("pack", {"items": [*items, {"id": "neutral"}]})


@pytest.mark.parametrize(
    ("kind", "body"),
    [
        ("preset", {"prompts": [{"identifier": "main"}, {"identifier": "main"}]}),
        ("quickreply", {"items": [{"id": 1}, {"id": 1}]}),
        ("htmldoc", {"slots": [{"name": "hp"}, {"name": "hp"}]}),
    ],
)
def test_item_ids_are_unique_within_a_piece(kind, body):
    refused(kind, body)


def test_regex_substitution_and_placements_are_named_not_numbered():
    refused("regex", {"rules": [{"substitute_macros": 1}]})
    refused("regex", {"rules": [{"placements": [2]}]})
    rules = piece(
        "regex",
        {
            "rules": [
                {
                    "pattern": "a+",
                    "flags": "gi",
                    "placements": ["ai_output"],
                    "substitute_macros": "escaped",
                    "min_depth": -1,
                }
            ]
        },
    ).body.rules
    assert rules[0].placements == ["ai_output"]
