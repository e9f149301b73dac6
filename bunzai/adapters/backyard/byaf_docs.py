"""BYAF's JSON documents <-> canonical character fields, under the strict v1 schemas.

character.json: `name` (short, the name the model sees) -> nickname when it differs from
`displayName` (the piece name); `persona` -> description; `isNSFW` -> rating; dates;
`loreItems` -> the embedded book; `images` -> portrait and assets (archive side).
The first scenario: `narrative` -> scenario, `firstMessages[0]` -> first message,
`exampleMessages` -> example messages, `formattingInstructions` -> system prompt. Its
samplers, chat, template and grammar, and every further scenario, stay in the escrow.
Every object is written with exactly the keys its schema allows (additionalProperties
is false throughout), so unknown keys cannot travel in a BYAF file.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.backyard.texts import book_of, example_texts, examples_of, iso_of, lore_items
from bunzai.adapters.common.drift import as_bool, as_str, iso_seconds
from bunzai.adapters.common.shapes import list_at
from bunzai.jsondoc.values import copied

CHARACTER_KEYS = (
    "schemaVersion",
    "$schema",
    "id",
    "name",
    "displayName",
    "isNSFW",
    "persona",
    "createdAt",
    "updatedAt",
    "loreItems",
    "images",
)
MANIFEST_KEYS = ("schemaVersion", "$schema", "createdAt", "author", "characters", "scenarios")
SCENARIO_KEYS = (
    "schemaVersion",
    "$schema",
    "title",
    "model",
    "formattingInstructions",
    "minP",
    "minPEnabled",
    "temperature",
    "repeatPenalty",
    "repeatLastN",
    "topK",
    "topP",
    "backgroundImage",
    "exampleMessages",
    "canDeleteExampleMessages",
    "firstMessages",
    "narrative",
    "promptTemplate",
    "grammar",
    "messages",
)
# A new scenario's settings: Backyard's usual defaults for a fresh chat.
NEW_SCENARIO = {
    "schemaVersion": 1,
    "formattingInstructions": "",
    "minP": 0.1,
    "minPEnabled": True,
    "temperature": 0.8,
    "repeatPenalty": 1.05,
    "repeatLastN": 256,
    "topK": 30,
    "topP": 0.9,
    "exampleMessages": [],
    "canDeleteExampleMessages": False,
    "firstMessages": [],
    "narrative": "",
    "promptTemplate": None,
    "grammar": None,
    "messages": [],
}


def character_fields(character: dict, scenario: dict, scenario_path: str = "scenario") -> tuple[str, dict]:
    """(piece name, body fields) from character.json and the first scenario; a message list
    that is not a list is corrupt_file naming it."""
    short, full = as_str(character.get("name")), as_str(character.get("displayName"))
    name = full or short or "Character"
    hint = "export the character again from Backyard AI"
    firsts = [m for m in list_at(scenario, "firstMessages", f"{scenario_path} /", hint) if isinstance(m, dict)]
    examples = [
        as_str(m.get("text"))
        for m in list_at(scenario, "exampleMessages", f"{scenario_path} /", hint)
        if isinstance(m, dict)
    ]
    return name, {
        "nickname": short if short and short != name else "",
        "description": as_str(character.get("persona")),
        "rating": "nsfw" if as_bool(character.get("isNSFW"), False) else "sfw",
        "creation_date": iso_seconds(character.get("createdAt")),
        "modification_date": iso_seconds(character.get("updatedAt")),
        "book": book_of(character.get("loreItems")),
        "scenario": as_str(scenario.get("narrative")),
        "first_message": as_str(firsts[0].get("text")) if firsts else "",
        "example_messages": examples_of(examples),
        "system_prompt": as_str(scenario.get("formattingInstructions")),
    }


def only(document: dict, keys: tuple[str, ...]) -> dict:
    """The document's known keys, in its own order (an unedited member goes back byte for byte)."""
    return {key: value for key, value in document.items() if key in keys}


def laid_out(doc: dict, keys: tuple[str, ...], prior: Any) -> dict:
    """`doc` with the keys the prior document had in its order, then new ones in `keys` order."""
    order = [key for key in prior if key in doc] if isinstance(prior, dict) else []
    order += [key for key in keys if key in doc and key not in order]
    return {key: doc[key] for key in order}


def write_character(prior: dict | None, char_id: str, name: str, body: dict, images: list[dict]) -> dict:
    doc = only(copied(prior), CHARACTER_KEYS) if prior else {"schemaVersion": 1, "id": char_id}
    doc["schemaVersion"] = 1
    doc["id"] = char_id
    doc["name"] = body["nickname"] or name
    doc["displayName"] = name
    doc["isNSFW"] = body["rating"] == "nsfw"
    doc["persona"] = body["description"]
    doc["createdAt"] = iso_of(body["creation_date"], doc.get("createdAt"))
    doc["updatedAt"] = iso_of(body["modification_date"], doc.get("updatedAt"))
    doc["loreItems"] = lore_items(body["book"], doc.get("loreItems"))
    doc["images"] = images
    return laid_out(doc, CHARACTER_KEYS, prior)


# write_scenario's `background` when the scenario's backgroundImage is left as it was.
KEEP = object()


def write_scenario(prior: dict | None, char_id: str, body: dict, background: Any = KEEP) -> dict:
    """The scenario for `body`; `background` is the backgroundImage member (None: no key, KEEP: as it was)."""
    doc = only(copied(prior), SCENARIO_KEYS) if prior else copied(NEW_SCENARIO)
    if background is None:
        doc.pop("backgroundImage", None)
    elif background is not KEEP:
        doc["backgroundImage"] = background
    for key, value in NEW_SCENARIO.items():
        doc.setdefault(key, copied(value))
    _, was = character_fields({}, doc)
    if was["scenario"] != body["scenario"]:
        doc["narrative"] = body["scenario"]
    if was["system_prompt"] != body["system_prompt"]:
        doc["formattingInstructions"] = body["system_prompt"]
    if was["first_message"] != body["first_message"] or _first_id(doc) not in (None, char_id):
        doc["firstMessages"] = (
            [{"characterID": char_id, "text": body["first_message"]}] if body["first_message"] else []
        )
    if was["example_messages"] != body["example_messages"]:
        doc["exampleMessages"] = [
            {"characterID": char_id, "text": text} for text in example_texts(body["example_messages"])
        ]
    elif isinstance(doc["exampleMessages"], list):
        for message in doc["exampleMessages"]:
            if isinstance(message, dict):
                message["characterID"] = char_id
    return laid_out(doc, SCENARIO_KEYS, prior)


def _first_id(doc: dict) -> Any:
    firsts = doc.get("firstMessages")
    if isinstance(firsts, list) and firsts and isinstance(firsts[0], dict):
        return firsts[0].get("characterID")
    return None


def write_manifest(prior: dict | None, character_path: str, scenario_paths: list[str], created: str) -> dict:
    doc = only(copied(prior), MANIFEST_KEYS) if prior else {"schemaVersion": 1, "createdAt": created}
    doc["schemaVersion"] = 1
    doc["characters"] = [character_path]
    doc["scenarios"] = scenario_paths
    return laid_out(doc, MANIFEST_KEYS, prior)
