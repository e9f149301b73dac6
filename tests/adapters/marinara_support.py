"""Marinara Engine export files, built as Marinara's export routes build them (see the
adapter docstrings for the routes and schemas): envelope `{type, version: 1, exportedAt, data}`
sent compact by JSON.stringify."""

from __future__ import annotations

import json

from bunzai.adapters.inspect import read_bytes


def envelope(kind: str, data: dict) -> bytes:
    document = {"type": kind, "version": 1, "exportedAt": "2026-05-05T10:00:00.000Z", "data": data}
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def character_export() -> bytes:
    """characters.routes.ts buildNativeCharacterEnvelope over characterDataSchema's fields."""
    entry = {
        "keys": ["glade"],
        "content": "The glade is quiet.",
        "extensions": {"x_entry": 1},
        "enabled": True,
        "insertion_order": 100,
        "case_sensitive": False,
        "name": "Glade",
        "priority": 100,
        "id": 0,
        "comment": "",
        "selective": False,
        "secondary_keys": [],
        "constant": False,
        "position": "before_char",
    }
    data = {
        "name": "Mari",
        "description": "{{char}} cooks pasta.",
        "personality": "warm",
        "scenario": "a kitchen",
        "first_mes": "Ciao!",
        "mes_example": "<START>\n{{char}}: Taste this.",
        "creator_notes": "notes",
        "system_prompt": "",
        "post_history_instructions": "",
        "tags": ["cook"],
        "creator": "tests",
        "character_version": "1",
        "alternate_greetings": ["Buongiorno!"],
        "extensions": {
            "talkativeness": 0.7,
            "fav": True,
            "world": "",
            "backstory": "Grew up in Naples.",
            "appearance": "Flour on her apron.",
            "depth_prompt": {"prompt": "Stay in the kitchen.", "depth": 4, "role": "system"},
            "importMetadata": {"card": {"spec": "chara_card_v2", "specVersion": "2.0"}},
        },
        "character_book": {
            "name": "Kitchen",
            "description": "",
            "scan_depth": 2,
            "token_budget": 512,
            "recursive_scanning": False,
            "extensions": {},
            "entries": [entry],
        },
    }
    return envelope(
        "marinara_character",
        {
            "spec": "chara_card_v2",
            "spec_version": "2.0",
            "data": data,
            "metadata": {
                "createdAt": "2026-05-01T09:00:00.000Z",
                "updatedAt": "2026-05-02T09:00:00.000Z",
                "comment": "kitchen version",
            },
        },
    )


def persona_export() -> bytes:
    """characters.routes.ts buildNativePersonaEnvelope: the personas row (db/schema/characters.ts)
    without id, avatarPath, isActive and the dates, which go to `metadata`."""
    row = {
        "name": "Luca",
        "comment": "the regular",
        "description": "{{user}} is a hungry traveller.",
        "personality": "curious",
        "scenario": "",
        "backstory": "Walked from Rome.",
        "appearance": "Dusty boots.",
        "nameColor": "#c0392b",
        "dialogueColor": "",
        "boxColor": "#222222",
        "personaStats": json.dumps(
            {"enabled": True, "bars": [{"name": "Satiety", "value": 40, "max": 100, "color": "#ffaa00"}]}
        ),
        "altDescriptions": json.dumps([{"id": "a1", "label": "Combat", "content": "Knife skills.", "active": False}]),
        "tags": json.dumps(["traveller"]),
    }
    return envelope(
        "marinara_persona",
        row | {"metadata": {"createdAt": "2026-05-01T09:00:00.000Z", "updatedAt": "2026-05-03T09:00:00.000Z"}},
    )


def lorebook_entry(**changes) -> dict:
    """A lorebook entry as lorebooks.storage.ts parseEntryRow returns it (booleans and arrays parsed)."""
    entry = {
        "id": "e1",
        "lorebookId": "lb1",
        "folderId": None,
        "name": "Naples",
        "content": "A city by the sea.",
        "description": "",
        "keys": ["naples", "city"],
        "secondaryKeys": [],
        "enabled": True,
        "constant": False,
        "selective": False,
        "selectiveLogic": "and",
        "probability": None,
        "scanDepth": None,
        "matchWholeWords": False,
        "caseSensitive": False,
        "useRegex": False,
        "characterFilterMode": "any",
        "characterFilterIds": [],
        "characterTagFilterMode": "any",
        "characterTagFilters": [],
        "generationTriggerFilterMode": "any",
        "generationTriggerFilters": [],
        "additionalMatchingSources": [],
        "position": 0,
        "outletName": "",
        "depth": 4,
        "order": 100,
        "role": "system",
        "sticky": None,
        "cooldown": None,
        "delay": None,
        "ephemeral": None,
        "group": "",
        "groupWeight": None,
        "locked": False,
        "preventRecursion": False,
        "excludeRecursion": False,
        "delayUntilRecursion": False,
        "tag": "location",
        "relationships": {},
        "dynamicState": {},
        "activationConditions": [],
        "schedule": None,
        "embedding": None,
        "createdAt": "2026-05-01T09:00:00.000Z",
        "updatedAt": "2026-05-01T09:00:00.000Z",
    }
    return entry | changes


def lorebook_export() -> bytes:
    """lorebooks.routes.ts GET /:id/export: {lorebook, entries, folders}, rows as parsed by storage."""
    book = {
        "id": "lb1",
        "name": "Italy",
        "description": "Places of Italy.",
        "category": "world",
        "scanDepth": 3,
        "tokenBudget": 1024,
        "recursiveScanning": True,
        "maxRecursionDepth": 2,
        "characterId": None,
        "personaId": None,
        "chatId": None,
        "enabled": True,
        "tags": ["places"],
        "generatedBy": "user",
        "sourceAgentId": None,
        "createdAt": "2026-05-01T09:00:00.000Z",
        "updatedAt": "2026-05-01T09:00:00.000Z",
    }
    entries = [
        lorebook_entry(),
        lorebook_entry(
            id="e2",
            name="Rome",
            content="The capital.",
            keys=["rom(e|a)"],
            useRegex=True,
            caseSensitive=True,
            secondaryKeys=["ancient"],
            selective=True,
            selectiveLogic="not",
            probability=60,
            position=2,
            depth=3,
            order=50,
            role="user",
            sticky=2,
            cooldown=1,
            delay=0,
            group="cities",
            groupWeight=80,
            preventRecursion=True,
            folderId="f1",
            additionalMatchingSources=["persona_description", "character_tags"],
            ephemeral=3,
        ),
    ]
    folders = [
        {
            "id": "f1",
            "lorebookId": "lb1",
            "name": "Cities",
            "enabled": True,
            "parentFolderId": None,
            "order": 0,
            "createdAt": "2026-05-01T09:00:00.000Z",
            "updatedAt": "2026-05-01T09:00:00.000Z",
        }
    ]
    return envelope("marinara_lorebook", {"lorebook": book, "entries": entries, "folders": folders})


def chat_preset_export() -> bytes:
    """chat-presets.routes.ts GET /:id/export: {name, mode, settings} (chatPresetSettingsSchema)."""
    return envelope(
        "marinara_chat_preset",
        {
            "name": "Slow burn",
            "mode": "roleplay",
            "settings": {
                "connectionId": "conn-1",
                "promptPresetId": "preset-1",
                "metadata": {"contextMessageLimit": 40, "enableAgents": True, "activeAgentIds": ["director"]},
            },
        },
    )


def read(data: bytes, name: str = "x.marinara.json", format_id: str | None = None):
    adapter, decoded = read_bytes(data, name, format_id)
    return adapter, decoded


def no_media(ref):
    raise AssertionError(f"no media expected, asked for {ref}")
