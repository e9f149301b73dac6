"""V2/V3 card `data` <-> the canonical character body.

Fields move under neutral names (`first_mes` -> `first_message`). SillyTavern's keys in
`data.extensions` (talkativeness, fav, world, depth_prompt, regex_scripts) map to typed
fields; every other extensions key is app data and travels in `body.extensions`. Writing
over an escrowed `data` changes only what reads differently from the canonical value, so a
same-format round trip leaves the document JSON-equal, unknown keys and type drift included.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from bunzai.adapters.common.drift import (
    MISSING,
    as_bool,
    as_count,
    as_float,
    as_int,
    as_object,
    as_str,
    as_str_list,
)
from bunzai.adapters.common.fieldmap import Field, FieldMap, answered_when_absent, put
from bunzai.adapters.contract import linked_name, own_book_bound
from bunzai.jsondoc.values import copied

ROLES = ("system", "user", "assistant")
# data.extensions keys SillyTavern owns and the body types; the rest is app data.
ST_CARD_EXTENSIONS = frozenset({"talkativeness", "fav", "world", "depth_prompt", "regex_scripts"})
# Dates above this are milliseconds (CharacterTavern, RisuAI); the spec says seconds.
_MILLISECONDS_ABOVE = 10_000_000_000
V3_ONLY = ("nickname", "creator_notes_multilingual", "source", "creation_date", "modification_date")


def _date(raw: Any) -> int | None:
    number = as_float(raw, 0.0)
    if number <= 0:
        return None  # 0 = unknown (CCv3)
    return int(number // 1000 if number > _MILLISECONDS_ABOVE else number)


def _notes_multilingual(raw: Any) -> dict[str, str]:
    return {key: value for key, value in as_object(raw).items() if isinstance(value, str)}


def _tags(raw: Any) -> list[str]:
    """Tags as a list; a string of them (some writers join them) split at its commas."""
    return [t.strip() for t in raw.split(",") if t.strip()] if isinstance(raw, str) else as_str_list(raw)


answered_when_absent(_date, "None")
answered_when_absent(_notes_multilingual, "{}")
answered_when_absent(_tags, "[]")


def _role(raw: Any) -> str:
    if raw.__class__ is str and raw in ROLES:  # as SillyTavern writes it: no call to strip or lower
        return raw
    if isinstance(raw, str) and raw.strip().lower() in ROLES:
        return raw.strip().lower()
    number = as_int(raw, 0)
    return ROLES[number] if number in (0, 1, 2) else "system"


# body field -> (data key, read(raw), encode(value) or None)
_PLAIN: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "nickname": ("nickname", as_str),
    "description": ("description", as_str),
    "personality": ("personality", as_str),
    "scenario": ("scenario", as_str),
    "first_message": ("first_mes", as_str),
    "alternate_greetings": ("alternate_greetings", as_str_list),
    "group_only_greetings": ("group_only_greetings", as_str_list),
    "example_messages": ("mes_example", as_str),
    "system_prompt": ("system_prompt", as_str),
    "post_history_instructions": ("post_history_instructions", as_str),
    "creator_notes": ("creator_notes", as_str),
    "creator_notes_multilingual": ("creator_notes_multilingual", _notes_multilingual),
    "tags": ("tags", _tags),
    "creator": ("creator", as_str),
    "version": ("character_version", as_str),
    "source": ("source", as_str_list),
    "creation_date": ("creation_date", _date),
    "modification_date": ("modification_date", _date),
}
V2_FIELDS = frozenset(_PLAIN) - set(V3_ONLY)


def v2_data_template() -> dict:
    """A new card's `data` object with every V2 field empty, in the spec's order."""
    return {
        "name": "",
        "description": "",
        "personality": "",
        "scenario": "",
        "first_mes": "",
        "mes_example": "",
        "creator_notes": "",
        "system_prompt": "",
        "post_history_instructions": "",
        "alternate_greetings": [],
        "tags": [],
        "creator": "",
        "character_version": "",
        "extensions": {},
    }


def v3_data_template() -> dict:
    """A new card's `data` object with V2's fields and V3's required `group_only_greetings`."""
    return v2_data_template() | {"group_only_greetings": []}


def data_key(field: str) -> str:
    """The card `data` key of a canonical body field (`first_message` -> `first_mes`)."""
    return _PLAIN[field][0]


V3_FIELDS = frozenset(_PLAIN)


def _talkativeness(raw: Any) -> float:
    if raw is MISSING:  # most cards but SillyTavern's own have none
        return 0.5
    return min(1.0, max(0.0, as_float(raw, 0.5)))


def _depth_prompt(raw: Any) -> dict:
    if not isinstance(raw, dict):  # most cards but SillyTavern's own have none
        raw = {}
    text, depth = raw.get("prompt"), raw.get("depth")
    return {
        "text": text if text.__class__ is str else as_str(text),
        "depth": depth if depth.__class__ is int and depth >= 0 else as_count(depth, 4),
        "role": _role(raw.get("role")),
    }


def _scripts(raw: Any) -> list[dict]:
    scripts = []
    for script in raw if isinstance(raw, list) else []:
        name = as_str(script.get("scriptName")) if isinstance(script, dict) else ""
        scripts.append({"format": "sillytavern.regex", "name": name, "payload": copied(script)})
    return scripts


def read_fields(data: dict, fields: frozenset[str]) -> dict:
    """Canonical body fields (JSON form) from a card's `data`, for the fields the format has."""
    body = _plain_map(fields).decode(data)
    ext = as_object(data.get("extensions"))
    body["depth_prompt"] = _depth_prompt(ext.get("depth_prompt"))
    favorite = ext.get("fav")
    body["settings"] = {
        "talkativeness": _talkativeness(ext.get("talkativeness", MISSING)),
        "favorite": favorite if favorite.__class__ is bool else as_bool(favorite, False),
        "variables": {},
        "bias": [],
    }
    scripts = ext.get("regex_scripts")
    body["behavior_scripts"] = _scripts(scripts) if scripts else []
    # Most cards' extensions are empty: no comprehension is set up for them.
    body["extensions"] = (
        {key: copied(value) for key, value in ext.items() if key not in ST_CARD_EXTENSIONS} if ext else {}
    )
    return body


@lru_cache(maxsize=8)
def _plain_map(fields: frozenset[str]) -> FieldMap:
    """The `_PLAIN` rows of `fields`, in `_PLAIN`'s order, as one compiled table (a format's
    set, compiled once); no reader of theirs gives MISSING."""
    rows = (Field(key, (field,), read) for field, (key, read) in _PLAIN.items() if field in fields)
    return FieldMap(rows, total=True)


def world_of(data: dict) -> str:
    return as_str(as_object(data.get("extensions")).get("world"))


def write_fields(data: dict, body: dict, fields: frozenset[str]) -> None:
    """Write the canonical body fields the format has over `data` (in place)."""
    for field, (key, read) in _PLAIN.items():
        if field in fields:
            put(data, key, body[field], read)
    ext = data["extensions"] if isinstance(data.get("extensions"), dict) else {}
    for key in [key for key in ext if key not in ST_CARD_EXTENSIONS and key not in body["extensions"]]:
        del ext[key]
    for key, value in body["extensions"].items():
        if key not in ST_CARD_EXTENSIONS and ext.get(key, MISSING) != value:
            ext[key] = copied(value)
    settings = body["settings"]
    put(ext, "talkativeness", settings["talkativeness"], _talkativeness)
    put(ext, "fav", settings["favorite"], lambda raw: as_bool(raw, False))
    if _depth_prompt(ext.get("depth_prompt")) != body["depth_prompt"]:
        native = ext["depth_prompt"] if isinstance(ext.get("depth_prompt"), dict) else {}
        ext["depth_prompt"] = native
        put(native, "prompt", body["depth_prompt"]["text"], as_str)
        put(native, "depth", body["depth_prompt"]["depth"], lambda raw: as_count(raw, 4))
        put(native, "role", body["depth_prompt"]["role"], _role)
    regex = [script for script in body["behavior_scripts"] if script["format"] == "sillytavern.regex"]
    if _scripts(ext.get("regex_scripts", MISSING)) != regex:
        ext["regex_scripts"] = [_named_payload(script) for script in regex]
    if ext or "extensions" in data:
        data["extensions"] = ext


def _named_payload(script: dict) -> Any:
    payload = copied(script["payload"])
    if isinstance(payload, dict) and as_str(payload.get("scriptName")) != script["name"]:
        payload["scriptName"] = script["name"]
    return payload


def write_world(
    data: dict, links: list[str], current: list[str], book_id: str | None, book_name: str | None = None
) -> None:
    """Bind the first linked lorebook as `extensions.world`, by the name SillyTavern knows the world
    by: LINKED_NAMES where the writer was told it, else the card's own copy of the book
    (a one-off convert, a world no longer on the shelf), else its id. Nothing is bound where the
    link only mirrors an unbound card's own book (unless its world file is written beside the card:
    OWN_BOOKS_BOUND), and a binding that already names the world under
    another id (an import that suffixed the ids) is kept; one whose world was renamed follows it,
    as SillyTavern moves a card's binding when its world is renamed."""
    world = world_of(data)
    first = links[0] if links else ""
    name = linked_name("lorebook", first) if first else None
    if first and not world and own_book_bound(first):  # its world file is written beside the card
        data.setdefault("extensions", {})["world"] = name or first
        return
    if links == current:
        if world and name is not None and name != world:
            data["extensions"]["world"] = name
        return
    if not first:
        if world:
            data["extensions"]["world"] = ""
        return
    name = name if name is not None else book_name or None
    if name is not None and name == world:
        return  # the bound world itself
    if not world and (first == book_id or (name is not None and name == book_name)):
        return  # the link is the embedded book itself: no world binding to add
    if current[:1] != [first]:
        data.setdefault("extensions", {})["world"] = name or first
