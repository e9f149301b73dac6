"""Marinara preset rows <-> canonical preset parts: sections (blocks), groups, the order, samplers.

A section is a prompt block: `identifier`, `name`, `content`, `role`, `enabled`,
`isMarker` (+ `markerConfig`, a JSON string naming the slot it fills), `injectionPosition`
("ordered" in layout order, "depth" injected into the chat at `injectionDepth` from 1 up;
at 0 Marinara sends it in its place, so it reads as relative),
`injectionOrder`, `forbidOverrides`; `wrapInXml`/`xmlTagName` and the row ids stay in the
escrow. `sectionOrder` (a JSON string of section ids) is the one global order; a group is
`{id, name, enabled, parentGroupId, order}` and its blocks are the sections naming it in
`groupId`. Samplers live in `parameters` (a JSON string) under camelCase names, and so does
the assistant prefill (`assistantPrefill`, the canonical utility prompt `assistant_prefill`).
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.drift import as_count, as_float, as_int, as_str
from bunzai.adapters.marinara.envelope import decode_nested, wire_bool

# Marinara `parameters` key -> canonical sampler, and how to read it.
SAMPLERS: tuple[tuple[str, str, str], ...] = (
    ("temperature", "temperature", "float0"),
    ("topP", "top_p", "float"),
    ("topK", "top_k", "int"),
    ("minP", "min_p", "float"),
    ("maxTokens", "max_tokens", "count"),
    ("maxContext", "max_context", "count"),
    ("frequencyPenalty", "frequency_penalty", "float"),
    ("presencePenalty", "presence_penalty", "float"),
    ("stopSequences", "stop_sequences", "strings"),
)
# Marker slots Marinara fills (markerConfig.type): its default preset's, and the two world-info
# positions of its MarkerType (marker-expander.ts, expandLorebook).
MARINARA_SLOTS = (
    "lorebook",
    "character",
    "persona",
    "chat_summary",
    "dialogue_examples",
    "chat_history",
    "world_info_before",
    "world_info_after",
)
# SillyTavern's marker identifiers (the canonical markers) whose content a Marinara slot holds: the
# one table both ways. Written, such a marker is a section of that slot; read, a marker section of
# that slot (markerConfig.type, else its identifier) is that canonical marker. chat_summary has none.
SLOT_FOR_ST_MARKER = {
    "chatHistory": "chat_history",
    "dialogueExamples": "dialogue_examples",
    "worldInfoBefore": "world_info_before",
    "worldInfoAfter": "world_info_after",
    "charDescription": "character",
    "personaDescription": "persona",
}
# Read only: `lorebook` sends both world-info positions and is read as worldInfoBefore (its first
# part); `character` (in the table) sends more than the description. Both are known gaps (the page).
ST_MARKER_FOR_SLOT = {slot: marker for marker, slot in SLOT_FOR_ST_MARKER.items()} | {"lorebook": "worldInfoBefore"}
ROLES = ("system", "user", "assistant")
PREFILL = "assistantPrefill"


def read_sampler(raw: Any, how: str) -> Any:
    if how == "strings":
        return [item for item in raw if isinstance(item, str)] if isinstance(raw, list) else None
    if how == "int":
        return as_int(raw, None)
    if how == "count":
        return as_count(raw, None)
    number = as_float(raw, float("nan"))
    if number != number or how == "float0" and number < 0:  # NaN: unreadable; temperature >= 0
        return None
    return number


def utility_prompts_of(preset: dict) -> dict:
    """`parameters.assistantPrefill`: the assistant message Marinara ends the prompt with (generate.routes.ts)."""
    prefill = decode_nested(preset.get("parameters"), {}).get(PREFILL)
    return {"assistant_prefill": prefill} if isinstance(prefill, str) else {}


def samplers_of(preset: dict) -> dict:
    params = decode_nested(preset.get("parameters"), {})
    return {name: read_sampler(params.get(key), how) for key, name, how in SAMPLERS if key in params}


def _marker_slot(row: dict) -> str:
    """The slot a marker section fills: its markerConfig.type, else its identifier ('' if not a marker)."""
    if not wire_bool(row.get("isMarker"), False):
        return ""
    config = decode_nested(row.get("markerConfig"), {})
    slot = config.get("type") if isinstance(config, dict) else None
    return slot if isinstance(slot, str) and slot else as_str(row.get("identifier"))


def identifiers_of(sections: list[dict]) -> list[str]:
    """Each section's block identifier: the canonical marker of a marker section's slot
    (ST_MARKER_FOR_SLOT), else its `identifier`, else its id; made unique in order."""
    seen: set[str] = set()
    out = []
    for index, row in enumerate(sections):
        ident = ST_MARKER_FOR_SLOT.get(_marker_slot(row), "")
        ident = ident if ident and ident not in seen else ""
        ident = ident or as_str(row.get("identifier")) or as_str(row.get("id")) or f"section-{index}"
        while ident in seen:
            ident = f"{ident}-{as_str(row.get('id')) or index}"
        seen.add(ident)
        out.append(ident)
    return out


def block_of(row: dict, identifier: str) -> dict:
    role = row.get("role")
    depth = as_count(row.get("injectionDepth"), 0)
    # assembler.ts injects a section into the chat only from depth 1; at 0 it is sent in its place.
    injected = row.get("injectionPosition") == "depth" and depth > 0
    return {
        "identifier": identifier,
        "name": as_str(row.get("name")),
        "role": role if role in ROLES else "system",
        "content": as_str(row.get("content")),
        "enabled": wire_bool(row.get("enabled"), True),
        "marker": wire_bool(row.get("isMarker"), False),
        "position": "absolute" if injected else "relative",
        "depth": depth,
        "injection_order": as_int(row.get("injectionOrder"), 100),
        "forbid_overrides": wire_bool(row.get("forbidOverrides"), False),
    }


def order_of(preset: dict, sections: list[dict], identifiers: list[str]) -> list[dict]:
    ids = decode_nested(preset.get("sectionOrder"), None)
    if not isinstance(ids, list):
        return []
    by_id = {as_str(row.get("id")): (row, ident) for row, ident in zip(sections, identifiers)}
    items = [
        {"identifier": by_id[sid][1], "enabled": wire_bool(by_id[sid][0].get("enabled"), True)}
        for sid in ids
        if isinstance(sid, str) and sid in by_id
    ]
    return [{"target": "global", "items": items}]


def groups_of(groups: list[dict], sections: list[dict], identifiers: list[str]) -> list[dict]:
    out = []
    for row in groups:
        gid = as_str(row.get("id"))
        out.append(
            {
                "id": gid,
                "name": as_str(row.get("name")),
                "enabled": wire_bool(row.get("enabled"), True),
                "blocks": [ident for sec, ident in zip(sections, identifiers) if as_str(sec.get("groupId")) == gid],
            }
        )
    return out


def rows(value: Any) -> list[dict]:
    return [row for row in value if isinstance(row, dict)] if isinstance(value, list) else []


def body_of(envelope: dict) -> dict:
    """The canonical preset body a `marinara_preset` envelope stands for."""
    data = envelope["data"]
    preset = data.get("preset") if isinstance(data.get("preset"), dict) else {}
    sections, groups = rows(data.get("sections")), rows(data.get("groups"))
    identifiers = identifiers_of(sections)
    return {
        "family": "chat_completion",
        "description": as_str(preset.get("description")),
        "samplers": samplers_of(preset),
        "prompts": [block_of(row, ident) for row, ident in zip(sections, identifiers)],
        "orders": order_of(preset, sections, identifiers),
        "groups": groups_of(groups, sections, identifiers),
        "utility_prompts": utility_prompts_of(preset),
    }
