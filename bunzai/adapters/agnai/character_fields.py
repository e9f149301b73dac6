"""Agnai's native character document <-> the canonical character body.

Fields move under their canonical names (`greeting` -> first_message, `sampleChat` ->
example_messages, native `description` -> creator_notes, `insert` -> depth_prompt,
`createdAt` ISO time -> creation_date seconds). The persona renders to `description`
(see persona.py). `extensions` holds the V2 data Agnai stored on import: SillyTavern's keys
in it are read as on a card (talkativeness, regex scripts), the rest is app data.
Writing over an escrowed document changes only what reads differently, so type drift
and unknown keys survive.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.agnai.persona import folded_text, render_persona, text_persona
from bunzai.adapters.common import card_fields
from bunzai.adapters.common.drift import (
    MISSING,
    as_bool,
    as_count,
    as_object,
    as_str,
    as_str_list,
    iso_seconds,
    iso_time,
)
from bunzai.adapters.common.fieldmap import put
from bunzai.jsondoc.values import copied

# body field -> (native key, read(raw))
PLAIN = {
    "first_message": ("greeting", as_str),
    "scenario": ("scenario", as_str),
    "example_messages": ("sampleChat", as_str),
    "creator_notes": ("description", as_str),
    "alternate_greetings": ("alternateGreetings", as_str_list),
    "system_prompt": ("systemPrompt", as_str),
    "post_history_instructions": ("postHistoryInstructions", as_str),
    "tags": ("tags", as_str_list),
    "creator": ("creator", as_str),
    "version": ("characterVersion", as_str),
}


def _insert(raw: Any) -> dict:
    native = as_object(raw)
    return {"text": as_str(native.get("prompt")), "depth": as_count(native.get("depth"), 4), "role": "system"}


def read_body(doc: dict) -> dict:
    """Canonical body fields (JSON form) from a native character, book and links apart."""
    name = as_str(doc.get("name"))
    body = {field: read(doc.get(key, MISSING)) for field, (key, read) in PLAIN.items()}
    body["description"] = render_persona(name, doc.get("persona"))
    body["creation_date"] = iso_seconds(doc.get("createdAt"))
    body["modification_date"] = iso_seconds(doc.get("updatedAt"))
    from_ext = card_fields.read_fields({"extensions": as_object(doc.get("extensions"))}, frozenset())
    body["settings"] = from_ext["settings"] | {"favorite": as_bool(doc.get("favorite"), False)}
    body["behavior_scripts"] = from_ext["behavior_scripts"]
    body["extensions"] = from_ext["extensions"]
    body["depth_prompt"] = _insert(doc.get("insert"))
    return body


def write_body(doc: dict, name: str, body: dict) -> None:
    """Write the canonical body over a native character document (in place)."""
    for field, (key, read) in PLAIN.items():
        put(doc, key, body[field], read)
    persona_text = folded_text(body["description"], body["personality"])
    if render_persona(name, doc.get("persona")) != persona_text:
        doc["persona"] = text_persona(persona_text, doc.get("persona"))
    put(doc, "createdAt", body["creation_date"], iso_seconds, iso_time)
    put(doc, "updatedAt", body["modification_date"], iso_seconds, iso_time)
    put(doc, "favorite", body["settings"]["favorite"], lambda raw: as_bool(raw, False))
    if _insert(doc.get("insert", MISSING)) != body["depth_prompt"] | {"role": "system"}:
        native = doc["insert"] if isinstance(doc.get("insert"), dict) else {}
        native["prompt"], native["depth"] = body["depth_prompt"]["text"], body["depth_prompt"]["depth"]
        doc["insert"] = native
    _write_extensions(doc, body)


def _write_extensions(doc: dict, body: dict) -> None:
    holder = {"extensions": copied(doc["extensions"])} if isinstance(doc.get("extensions"), dict) else {}
    as_read = card_fields.read_fields(holder, frozenset())
    # depth_prompt and fav inside extensions are Agnai's stored V2 copies: left as they are.
    ext_body = body | {
        "depth_prompt": as_read["depth_prompt"],
        "settings": body["settings"] | {"favorite": as_read["settings"]["favorite"]},
    }
    card_fields.write_fields(holder, ext_body, frozenset())
    if "extensions" in holder:
        doc["extensions"] = holder["extensions"]
