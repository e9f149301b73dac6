"""Marinara Engine's profile backup and "Compatible JSON" lorebook, built as its routes build them
(backup.routes.ts buildProfileExportEnvelope and buildCompatibleLorebookExport) from the rows
the single-piece exports in marinara_support carry."""

from __future__ import annotations

import base64
import json

from marinara_support import character_export, lorebook_export, persona_export

# A 1x1 PNG, as an avatar file Marinara reads into avatarBase64.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
MARK_SOURCE = "Marinara Engine compatibility export"


def character_row(row_id: str = "c1", **changes) -> dict:
    """A characters row (db/schema/characters.ts: data is the V2 card as a JSON string) + avatarBase64."""
    card = json.loads(character_export())["data"]
    row = {
        "id": row_id,
        "data": json.dumps(card["data"]),
        "comment": card["metadata"]["comment"],
        "avatarPath": f"avatars/{row_id}.png",
        "spriteFolderPath": None,
        "createdAt": card["metadata"]["createdAt"],
        "updatedAt": card["metadata"]["updatedAt"],
        "avatarBase64": base64.b64encode(PNG).decode("ascii"),
    }
    return row | changes


def persona_row(row_id: str = "p1", **changes) -> dict:
    """A personas row as the database holds it (strings for JSON and booleans) + avatarBase64."""
    data = json.loads(persona_export())["data"]
    metadata = data.pop("metadata")
    return {"id": row_id, **data, "avatarPath": None, "isActive": "true", **metadata, "avatarBase64": None} | changes


def lorebook_row(row_id: str = "lb1", **changes) -> dict:
    """A lorebook as lorebooks.storage.ts parses it, with its folders and entries."""
    data = json.loads(lorebook_export())["data"]
    return {**data["lorebook"], "id": row_id, "folders": data["folders"], "entries": data["entries"]} | changes


def preset_row(row_id: str = "pr1") -> dict:
    """A promptPresets row (strings for JSON and booleans) with its groups, sections and choices."""
    section = {
        "id": "s1",
        "presetId": row_id,
        "identifier": "main",
        "name": "Main",
        "content": "You are {{char}}.",
        "role": "system",
        "enabled": "true",
        "isMarker": "false",
        "groupId": None,
        "markerConfig": None,
        "injectionPosition": "ordered",
        "injectionDepth": 0,
        "injectionOrder": 100,
        "wrapInXml": "false",
        "xmlTagName": "",
        "forbidOverrides": "false",
    }
    return {
        "id": row_id,
        "name": "Trattoria",
        "description": "A small preset.",
        "sectionOrder": json.dumps(["s1"]),
        "groupOrder": "[]",
        "variableGroups": "[]",
        "variableValues": "{}",
        "parameters": json.dumps({"temperature": 0.8, "maxTokens": 300}),
        "wrapFormat": "xml",
        "defaultChoices": "{}",
        "isDefault": "false",
        "author": "",
        "createdAt": "2026-05-01T09:00:00.000Z",
        "updatedAt": "2026-05-01T09:00:00.000Z",
        "groups": [],
        "sections": [section],
        "choices": [],
    }


def profile(**sections) -> dict:
    data = {
        "characters": [character_row()],
        "personas": [persona_row()],
        "lorebooks": [lorebook_row(characterId="c1")],
        "presets": [preset_row()],
        "agents": [{"id": "a1", "type": "director", "name": "Director", "settings": {"apiKey": None}}],
        "themes": [{"id": "t1", "name": "Night", "css": "body{}", "isActive": "true"}],
    } | sections
    return {"type": "marinara_profile", "version": 1, "exportedAt": "2026-05-05T10:00:00.000Z", "data": data}


def profile_bytes(**sections) -> bytes:
    return json.dumps(profile(**sections), indent=2).encode("utf-8")  # JSON.stringify(envelope, null, 2)


def compatible_entry(entry: dict, index: int) -> dict:
    """One entry as an older buildCompatibleLorebookExport wrote it (Marinara's three logics as
    0 / 1 / 2, stRole; position as is; no outletName)."""
    return {
        "uid": index,
        "key": entry["keys"],
        "keysecondary": entry["secondaryKeys"],
        "comment": entry["name"],
        "content": entry["content"],
        "disable": entry["enabled"] is False,
        "constant": entry["constant"] is True,
        "selective": entry["selective"] is True,
        "selectiveLogic": {"or": 1, "not": 2}.get(entry["selectiveLogic"], 0),
        "order": entry["order"],
        "position": entry["position"],
        "depth": entry["depth"],
        "probability": entry["probability"],
        "scanDepth": entry["scanDepth"],
        "matchWholeWords": entry["matchWholeWords"] is True,
        "caseSensitive": entry["caseSensitive"] is True,
        "role": {"user": 1, "assistant": 2}.get(entry["role"], 0),
        "group": entry["group"],
        "groupWeight": entry["groupWeight"],
        "sticky": entry["sticky"],
        "cooldown": entry["cooldown"],
        "delay": entry["delay"],
    }


def current_compatible_entry(entry: dict, index: int) -> dict:
    """One entry as buildCompatibleLorebookExport writes it since Marinara took SillyTavern's four
    logics: SillyTavern's numbers (stSelectiveLogic, stPosition), outletName, regex and recursion."""
    older = compatible_entry(entry, index)
    logic = {"or": 0, "not_all": 1, "not": 2, "and_all": 3}.get(entry["selectiveLogic"], 0)
    position = {7: 7, 2: 4, 1: 1}.get(entry["position"], 0)
    return older | {
        "selectiveLogic": logic,
        "position": position,
        "outletName": entry.get("outletName", ""),
        "useRegex": entry["useRegex"] is True,
        "preventRecursion": entry["preventRecursion"] is True,
        "excludeRecursion": entry.get("excludeRecursion") is True,
        "delayUntilRecursion": entry.get("delayUntilRecursion") is True,
    }


def compatible_lorebook(entries: list[dict] | None = None, writer=compatible_entry) -> dict:
    """buildCompatibleLorebookExport over lorebook_export's entries: an ST world, by default in
    the older Marinara's numbers (`writer=current_compatible_entry` for today's)."""
    data = json.loads(lorebook_export())["data"]
    rows = data["entries"] if entries is None else entries
    mark = {"marinara": {"exportedAt": "2026-05-06T10:00:00.000Z", "source": MARK_SOURCE}}
    return {
        "name": data["lorebook"]["name"],
        "extensions": mark,
        "entries": {str(index): writer(entry, index) for index, entry in enumerate(rows)},
    }
