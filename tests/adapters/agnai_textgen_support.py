"""A rich canonical character (every field set) and its media, for the Agnai and textgen crossing tests."""

from __future__ import annotations

from bunzai.adapters.common import png
from bunzai.adapters.contract import Blob


def portrait_blob() -> Blob:
    return Blob(png.default_portrait(), "png", "image/png")


def rich_entry(uid, **extra) -> dict:
    entry = {
        "uid": uid,
        "title": "Tower",
        "keys": ["tower", {"text": "spire+", "regex": True, "flags": "i"}],
        "secondary_keys": ["night"],
        "selective": True,
        "selective_logic": "not_all",
        "content": "The tower glows.",
        "enabled": True,
        "constant": True,
        "vectorized": True,
        "order": 7,
        "priority": 3,
        "position": "at_depth",
        "depth": 2,
        "role": "user",
        "outlet": "o",
        "probability": 60,
        "use_probability": False,
        "group": {"names": ["g"], "override": True, "weight": 5, "use_group_scoring": True},
        "sticky": 1,
        "cooldown": 2,
        "delay": 3,
        "exclude_recursion": True,
        "prevent_recursion": True,
        "delay_until_recursion": 2,
        "scan_depth": 5,
        "case_sensitive": True,
        "match_whole_words": True,
        "triggers": ["normal"],
        "ignore_budget": True,
        "match_persona_description": True,
        "match_character_description": True,
        "match_character_personality": True,
        "match_character_depth_prompt": True,
        "match_scenario": True,
        "match_creator_notes": True,
        "automation_id": "a",
        "character_filter": {"exclude": True, "names": ["x"], "tags": ["y"]},
        "display_index": 4,
        "extensions": {"app": {"k": 1}},
    }
    return entry | extra


def rich_character():
    """A character with every canonical field away from its default."""
    from bunzai.model.character import Character

    portrait = portrait_blob().ref()
    book = {
        "name": "Lore",
        "description": "lore book",
        "entries": [rich_entry(1), rich_entry(2, content="")],
        "settings": {
            "scan_depth": 3,
            "token_budget": 400,
            "recursive_scanning": True,
            "max_recursion_steps": 2,
            "min_activations": 1,
            "case_sensitive": True,
            "match_whole_words": True,
            "use_group_scoring": True,
            "include_names": False,
        },
        "extensions": {"book_app": True},
    }
    body = {
        "nickname": "Ada",
        "tagline": "hook",
        "description": "desc {{char}}",
        "personality": "brave",
        "scenario": "a tower",
        "first_message": "hi {{user}}",
        "alternate_greetings": ["yo"],
        "group_only_greetings": ["all"],
        "example_messages": "<START>\n{{user}}: hi\n{{char}}: hello",
        "system_prompt": "sys {{original}}",
        "post_history_instructions": "phi",
        "creator_notes": "notes",
        "creator_notes_multilingual": {"ja": "nōto"},
        "tags": ["t1"],
        "creator": "me",
        "version": "2",
        "rating": "sfw",
        "content_warnings": ["w"],
        "source": ["https://example.org"],
        "creation_date": 1700000000,
        "modification_date": 1700000100,
        "portrait": portrait,
        "media": {"pack": "ada-pack", "visual": "sprites", "face": "joy"},
        "links": {"lorebooks": ["lore", "extra-world"], "regex": ["rx"], "quickreplies": ["qr"]},
        "depth_prompt": {"text": "note", "depth": 2, "role": "user"},
        "book": book,
        "variants": [{"id": "winter", "overrides": {"description": "cold"}}],
        "settings": {"talkativeness": 0.7, "favorite": True, "variables": {"v": "1"}, "bias": [["x", 1.0]]},
        "behavior_scripts": [
            {"format": "sillytavern.regex", "name": "r", "payload": {"scriptName": "r"}},
            {"format": "risu.trigger", "name": "t", "payload": {}},
        ],
        "presentation": {"palette": {"name": "#fff"}},
        "extensions": {"app": {"x": 1}},
    }
    return Character.model_validate(
        {
            "id": "ada",
            "name": "Ada",
            "body": body,
            "profiles": {"risu": {"a": 1}},
            "assets": [{"role": "icon", "name": "main", "ext": "png", "asset": portrait}],
        }
    )


def media(ref) -> bytes:
    blob = portrait_blob()
    assert ref.sha256 == blob.sha256
    return blob.data
