"""SillyTavern persona backups: `{personas, persona_descriptions, default_persona}`.

One backup holds several personas, keyed by avatar file name; each becomes its own
persona piece, whose escrow is the backup sliced down to that avatar (its name, its
description entry, `default_persona` when it was the default, and the file's other
root keys). Writing gives a backup holding just the one persona. Backups carry no
images, so a portrait never crosses.
"""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Any

from bunzai.adapters.common.drift import as_int
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.common.naming import piece_id_for
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource, linked_name
from bunzai.adapters.inspect import parse_text
from bunzai.adapters.registry import register
from bunzai.adapters.common.jsjson import js_numbers
from bunzai.errors import BunzaiError
from bunzai.model.base import Escrow
from bunzai.model.persona import Persona, PersonaBody

FORMAT_ID = "sillytavern.personas"

# persona_description_positions; 1 (AFTER_CHAR) is deprecated and ST treats it as 0.
_POSITION_IN = {0: "in_prompt", 1: "in_prompt", 2: "top_an", 3: "bottom_an", 4: "at_depth", 9: "none"}
_POSITION_OUT = {"in_prompt": 0, "top_an": 2, "bottom_an": 3, "at_depth": 4, "none": 9}
_ROLES = ("system", "user", "assistant")
_DEFAULT_DEPTH = 2
_ROOT_KEYS = ("personas", "persona_descriptions", "default_persona")

LOREBOOK_BY_ID = LossRule(
    "/body/lorebook",
    "translated",
    "persona.lorebook.by_id",
    "the bound lorebook is written by its bunzai id; "
    "SillyTavern binds a world by its file name, so rename it if they differ",
)
PORTRAIT_DROPPED = LossRule(
    "/body/portrait",
    "dropped",
    "persona.portrait.dropped",
    "persona backups hold no images; copy the avatar into SillyTavern's User Avatars folder yourself",
)
# The persona fields SillyTavern has no place for, by field.
FIELD_DROPPED = {
    field: LossRule(
        f"/body/{field}",
        "dropped",
        f"persona.{field}.dropped",
        f"SillyTavern personas have no {field}; only the description is injected",
    )
    for field in ("profile", "extensions")
}
PRESENTATION_DROPPED = LossRule(
    "/body/presentation",
    "dropped",
    "persona.presentation.dropped",
    "SillyTavern personas have no presentation settings",
)
ASSETS_DROPPED = LossRule("/assets", "dropped", "persona.assets.dropped", "persona backups hold no media")
PROFILES_DROPPED = LossRule(
    "/profiles", "dropped", "persona.profiles.dropped", "persona backups carry no per-platform profiles"
)
# What SillyTavern lists a persona without a name as (personas.js getUserAvatarBlock).
UNNAMED = "[Unnamed Persona]"
NAME_EMPTY = LossRule(
    "/name",
    "dropped",
    "persona.name.empty",
    f"SillyTavern's restore skips the description of a persona without a name and lists it as {UNNAMED}; "
    "it is read back under that name",
)


def _role(value: Any) -> str:
    if isinstance(value, str) and value.strip().lower() in _ROLES:
        return value.strip().lower()
    number = as_int(value)
    return _ROLES[number] if number in (0, 1, 2) else "system"


def body_from_entry(entry: dict, warnings: list[str], where: str) -> PersonaBody:
    position = as_int(entry.get("position"))
    if entry.get("position") is not None and position not in _POSITION_IN:
        warnings.append(f"{where}: position {entry.get('position')!r} is not one SillyTavern knows; read as in_prompt")
    depth = as_int(entry.get("depth"))
    lorebook = entry.get("lorebook")
    return PersonaBody(
        description=entry.get("description") if isinstance(entry.get("description"), str) else "",
        brief=entry.get("title") if isinstance(entry.get("title"), str) else "",
        position=_POSITION_IN.get(position, "in_prompt"),
        depth=depth if depth is not None and depth >= 0 else _DEFAULT_DEPTH,
        role=_role(entry.get("role")),
        lorebook=piece_id_for(lorebook, "", "lorebook") if isinstance(lorebook, str) and lorebook.strip() else None,
    )


def _avatars(document: dict) -> list[str]:
    names = document.get("personas") if isinstance(document.get("personas"), dict) else {}
    entries = document.get("persona_descriptions") if isinstance(document.get("persona_descriptions"), dict) else {}
    return list(names) + [avatar for avatar in entries if avatar not in names]


def slice_for(document: dict, avatar: str) -> dict:
    """The backup holding only `avatar`: what its piece escrows and what writing gives back."""
    out: dict[str, Any] = {}
    for key, value in document.items():
        if key in ("personas", "persona_descriptions"):
            if isinstance(value, dict) and avatar in value:
                out[key] = {avatar: value[avatar]}
            else:
                out[key] = {}
        elif key == "default_persona":
            out[key] = avatar if value == avatar else None
        else:
            out[key] = value
    return out


class SillyTavernPersonas(Adapter):
    format_id = FORMAT_ID
    label = "SillyTavern persona backup"
    engine = "sillytavern"  # SillyTavern expands the macros in a persona description
    kinds = ("persona",)
    extensions = (".json",)
    container = "text"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not isinstance(parsed, dict) or not isinstance(parsed.get("personas"), dict):
            return 0.0
        return 0.95 if isinstance(parsed.get("persona_descriptions"), dict) else 0.6

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        if parsed is None:
            parsed = parse_text(data, name)
        avatars = _avatars(parsed) if isinstance(parsed, dict) else []
        if not avatars:
            raise BunzaiError(
                "invalid_input",
                f"{name or 'the file'} holds no SillyTavern personas",
                "a persona backup has a `personas` object keyed by avatar file name",
            )
        warnings: list[str] = []
        pieces, taken = [], set()
        for avatar in avatars:
            escrow = slice_for(parsed, avatar)
            named = escrow.get("personas", {}).get(avatar)
            title = _shown(named) if _named(named) else UNNAMED
            if not _named(named):
                warnings.append(
                    f"persona {avatar!r} has no name in `personas`: SillyTavern's restore skips its description "
                    f"and lists it as {UNNAMED}; read under that name"
                )
            elif not isinstance(named, str):
                warnings.append(f"persona {avatar!r} has the name {named!r}, not text; read as SillyTavern shows it")
            entry = escrow.get("persona_descriptions", {}).get(avatar)
            stem = title if _named(named) else PurePath(avatar).stem
            piece_id = _unique(piece_id_for(stem, avatar, "persona"), taken)
            body = body_from_entry(entry if isinstance(entry, dict) else {}, warnings, f"persona {avatar!r}")
            pieces.append(
                Persona(id=piece_id, name=title, body=body, original=Escrow(format=FORMAT_ID, document=escrow))
            )
        return Decoded(pieces=pieces, warnings=warnings)

    def write(self, piece: Persona, media: MediaSource) -> Encoded:
        losses: list[Loss] = []
        escrow = piece.original.document if piece.original and piece.original.format == FORMAT_ID else None
        base = escrow if isinstance(escrow, dict) and len(_avatars(escrow)) == 1 else None
        avatar = _avatars(base)[0] if base else f"{piece.id}.png"
        document = json.loads(json.dumps(base)) if base else {key: None for key in _ROOT_KEYS}
        names = document["personas"] if isinstance(document.get("personas"), dict) else {}
        shown = _shown(names.get(avatar)) if _named(names.get(avatar)) else UNNAMED
        # a name is rewritten only when it shows otherwise: a number 7 read as "7" stays 7, and
        # a persona read as UNNAMED keeps its file's missing name (SillyTavern never stored that label)
        if shown != piece.name:
            names[avatar] = piece.name
        document["personas"] = names
        entries = document["persona_descriptions"] if isinstance(document.get("persona_descriptions"), dict) else {}
        entry = entries.get(avatar) if isinstance(entries.get(avatar), dict) else {}
        entries[avatar] = _entry_out(piece, entry, losses)
        document["persona_descriptions"] = entries
        if "default_persona" not in document:
            document["default_persona"] = None
        losses += _unkept(piece)
        if not _named(names.get(avatar)):
            losses.append(NAME_EMPTY.at("/name"))
        return Encoded(json.dumps(js_numbers(document), indent=2, ensure_ascii=False).encode("utf-8"), losses)


def _named(value: Any) -> bool:
    """A name SillyTavern restores a persona under: its restore skips an avatar whose name is
    falsy in JavaScript (so a number 7 names one, a 0 does not)."""
    if isinstance(value, float):
        return value == value and value != 0  # NaN is falsy too
    return value is not None and value is not False and value != 0 and value != ""


def _shown(value: Any) -> str:
    """The text SillyTavern shows for a truthy name, String(name) as JavaScript spells it
    (personas.js puts it in the list and in {{user}} as it is)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    if isinstance(value, list):
        return ",".join("" if item is None else _shown(item) for item in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def _unique(candidate: str, taken: set[str]) -> str:
    chosen, number = candidate, 2
    while chosen in taken:
        suffix = f"-{number}"
        chosen, number = candidate[: 128 - len(suffix)] + suffix, number + 1
    taken.add(chosen)
    return chosen


def _entry_out(piece: Persona, entry: dict, losses: list[Loss]) -> dict:
    body = piece.body
    previous = body_from_entry(entry, [], "") if entry else None

    def changed(field: str) -> bool:
        return previous is None or getattr(previous, field) != getattr(body, field)

    out = dict(entry)
    if changed("description"):
        out["description"] = body.description
    if changed("position"):
        out["position"] = _POSITION_OUT[body.position]
    if changed("depth"):
        out["depth"] = body.depth
    if changed("role"):
        out["role"] = _ROLES.index(body.role)
    # SillyTavern binds a world by its name (worlds/<name>.json): the name the lorebook goes by
    # where the writer was told it (a world renamed since is followed), else the bunzai id.
    world = linked_name("lorebook", body.lorebook) if body.lorebook else None
    if world is not None:
        if changed("lorebook") or out.get("lorebook") != world:
            out["lorebook"] = world
    elif changed("lorebook"):
        out["lorebook"] = body.lorebook or ""
        if body.lorebook:
            losses.append(LOREBOOK_BY_ID.at("/body/lorebook"))
    if changed("brief") and (body.brief or "title" in out):
        out["title"] = body.brief
    return out


def _unkept(piece: Persona) -> list[Loss]:
    body = piece.body
    found = []
    if body.portrait is not None:
        found.append(PORTRAIT_DROPPED.at("/body/portrait"))
    for field, rule in FIELD_DROPPED.items():
        if getattr(body, field):
            found.append(rule.at(f"/body/{field}"))
    if body.presentation.model_dump() != type(body.presentation)().model_dump():
        found.append(PRESENTATION_DROPPED.at("/body/presentation"))
    if piece.assets:
        found.append(ASSETS_DROPPED.at("/assets"))
    if piece.profiles:
        found.append(PROFILES_DROPPED.at("/profiles"))
    return found


register(SillyTavernPersonas())
