"""Marinara Engine personas (`.marinara.json`, type `marinara_persona`) <-> a persona.

The native persona export (characters.routes.ts, buildNativePersonaEnvelope) is the
`personas` database row (db/schema/characters.ts) without id, avatarPath and isActive, its
dates moved to `data.metadata`. Marinara's import (marinara.importer.ts importPersona) reads
back name, description, personality, scenario, backstory, appearance and the three colours.

    name -> name; comment -> brief; description -> description
    personality, scenario, backstory, appearance -> profile (those labels, in that order)
    nameColor, dialogueColor, boxColor -> presentation.palette name, dialogue, box

`personaStats`, `altDescriptions` and `tags` (JSON strings inside the JSON, as the row holds
them), the dates and unknown keys stay in the escrow. Today's export adds the avatar (the
portrait), the sprites (expression images: marinara/sprites.py) and the gallery (escrow only).

Marinara's "compatible" persona export (buildCompatiblePersonaExport) is the same row at the
top level with no dates and an `extensions.marinara` mark; its import dialog
(ImportPersonaModal.tsx) takes it too. It is read as the native envelope it stands for, so it
is written back as a native export. Writing goes over the escrowed row,
a key rewritten only where the canonical value differs from what it reads as; the written
file is read back and every difference is named by a loss rule.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.drift import as_str
from bunzai.adapters.common.naming import piece_id_for
from bunzai.adapters.common.losses import LossRule, readback_losses
from bunzai.adapters.contract import Adapter, Decoded, Encoded, MediaSource
from bunzai.adapters.marinara import sprites
from bunzai.adapters.marinara.envelope import (
    FIXED_EXPORTED_AT,
    avatar_image,
    compact_bytes,
    envelope_of,
    envelope_type,
    escrowed_envelope,
    new_envelope,
    put_avatar,
)
from bunzai.adapters.inspect import parse_text
from bunzai.adapters.registry import register
from bunzai.jsondoc.values import copied
from bunzai.model import dump_piece
from bunzai.model.base import Escrow
from bunzai.model.persona import Persona, PersonaBody

FORMAT_ID = "marinara.persona"
TYPE = "marinara_persona"
PROFILE_KEYS = ("personality", "scenario", "backstory", "appearance")
PALETTE_KEYS = (("name", "nameColor"), ("dialogue", "dialogueColor"), ("box", "boxColor"))
COMPATIBLE_SOURCE = "Marinara Engine compatibility export"  # characters.routes.ts

_WHO = "a Marinara persona"
ASSETS_DROPPED = LossRule(
    "/assets",
    "dropped",
    "marinara.persona.assets.dropped",
    "a Marinara persona carries expression images as sprites only",
)
SPRITE_RENAMED = LossRule(
    r"/assets/\d+/(?:name|ext)",
    "translated",
    "marinara.persona.sprite.renamed",
    "Marinara names a sprite by its file's stem made safe, each name once",
)
SPRITES_LISTED = LossRule(
    "/assets",
    "translated",
    "marinara.persona.sprites.listed",
    "the media list reads back as the sprites alone, in their order",
)
LOSS_RULES = (
    LossRule(
        "/body/(?:position|depth|role)",
        "dropped",
        "marinara.persona.placement.dropped",
        "Marinara injects a persona's description with the character's; it has no placement setting",
    ),
    LossRule(
        "/body/portrait",
        "dropped",
        "marinara.persona.portrait.dropped",
        "Marinara keeps a PNG, JPEG, GIF, WebP or AVIF avatar only",
    ),
    LossRule(
        "/body/lorebook",
        "dropped",
        "marinara.persona.lorebook.dropped",
        "Marinara binds a lorebook to a persona on the lorebook (personaId), not in the persona export",
    ),
    LossRule(
        "/body/profile/[^/]+",
        "dropped",
        "marinara.persona.profile.dropped",
        "a Marinara persona has personality, scenario, backstory and appearance fields only",
    ),
    LossRule(
        "/body/profile",
        "translated",
        "marinara.persona.profile.order",
        "Marinara's profile fields come in a fixed order",
    ),
    LossRule(
        "/body/presentation/palette/[^/]+",
        "dropped",
        "marinara.persona.palette.dropped",
        "a Marinara persona has name, dialogue and box colours only",
    ),
    LossRule(
        "/body/presentation",
        "dropped",
        "marinara.persona.presentation.dropped",
        "a Marinara persona has no such presentation setting",
    ),
    LossRule(
        "/body/extensions",
        "dropped",
        "marinara.persona.extensions.dropped",
        "a Marinara persona keeps no extensions object",
    ),
    ASSETS_DROPPED,
    LossRule(
        "/profiles", "dropped", "marinara.persona.profiles.dropped", "a Marinara persona has no per-platform profiles"
    ),
)
FALLBACK = LossRule(
    "", "dropped", "marinara.persona.not_carried", "a Marinara persona does not carry this value as it is"
)


def body_of(row: dict) -> dict:
    profile = {key: as_str(row.get(key)) for key in PROFILE_KEYS if as_str(row.get(key))}
    palette = {label: as_str(row.get(key)) for label, key in PALETTE_KEYS if as_str(row.get(key))}
    return {
        "description": as_str(row.get("description")),
        "brief": as_str(row.get("comment")),
        "profile": profile,
        "presentation": {"palette": palette},
    }


def compatible_envelope(parsed: Any) -> dict | None:
    """The native envelope a "compatible" persona export stands for, or None for another document.

    It is marked (`extensions.marinara.source`), except in the compatible profile ZIP
    (backup.routes.ts buildCompatibleProfileZip), where the row comes bare: its three colour
    columns, which every persona row has and no other format, tell it. The mark is also on
    Marinara's compatible lorebook export, an ST world with `entries`.
    """
    if not isinstance(parsed, dict) or "entries" in parsed or "type" in parsed:
        return None
    extensions = parsed.get("extensions")
    mark = extensions.get("marinara") if isinstance(extensions, dict) else None
    mark = mark if isinstance(mark, dict) and mark.get("source") == COMPATIBLE_SOURCE else None
    if mark is None and not all(key in parsed for _, key in PALETTE_KEYS):
        return None
    if not (isinstance(parsed.get("name"), str) and isinstance(parsed.get("description"), str)):
        return None
    envelope = new_envelope(TYPE, {key: value for key, value in parsed.items() if key != "extensions"})
    if mark is not None and isinstance(mark.get("exportedAt"), str):
        envelope["exportedAt"] = mark["exportedAt"]
    return envelope


class MarinaraPersona(Adapter):
    format_id = FORMAT_ID
    label = "Marinara Engine persona"
    kinds = ("persona",)
    extensions = (".marinara.json", ".json")
    container = "text"
    engine = "marinara"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if envelope_type(parsed) == TYPE:
            return 0.95
        return 0.9 if compatible_envelope(parsed) is not None else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        if parsed is None:
            parsed = parse_text(data, name or "x.json")
        envelope = compatible_envelope(parsed) or envelope_of(data, name, parsed, TYPE)
        row = envelope["data"]
        # importPersona's `String(d.name ?? "Imported Persona")`: only a missing name is replaced
        title = "Imported Persona" if row.get("name") is None else as_str(row.get("name"))
        # Today's export carries the avatar and the sprites as data: URLs; its gallery stays in the escrow.
        place = name or "the persona"
        avatar, warning = avatar_image(row.get("avatar"), place, "marinara.persona.avatar")
        links, blobs, warnings = sprites.read_sprites(row.get("sprites"), place, "marinara.persona.sprite")
        body = body_of(row) | {"portrait": avatar.ref_json() if avatar is not None else None}
        piece = Persona(
            id=piece_id_for(title, name, "persona"),
            name=title,
            body=PersonaBody.model_validate(body),
            assets=links,
            original=Escrow(format=FORMAT_ID, document=envelope),
        )
        blobs = ([avatar] if avatar is not None else []) + blobs
        return Decoded([piece], blobs, ([warning] if warning else []) + warnings)

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        base = escrowed_envelope(piece, FORMAT_ID, TYPE)
        if base is not None:
            envelope = copied(base)
        else:
            row = {
                "name": "",
                "comment": "",
                "description": "",
                **{key: "" for key in PROFILE_KEYS},
                **{key: "" for _, key in PALETTE_KEYS},
                "personaStats": "",
                "altDescriptions": "[]",
                "tags": "[]",
                "metadata": {"createdAt": FIXED_EXPORTED_AT, "updatedAt": FIXED_EXPORTED_AT},
            }
            envelope = new_envelope(TYPE, row)
        row = envelope["data"]
        twin = body_of(row)
        body = piece.body.model_dump(mode="json")
        if as_str(row.get("name")) != piece.name:
            row["name"] = piece.name
        for key, native in (("description", "description"), ("brief", "comment")):
            if body[key] != twin[key]:
                row[native] = body[key]
        for key in PROFILE_KEYS:
            if body["profile"].get(key, "") != twin["profile"].get(key, ""):
                row[key] = body["profile"].get(key, "")
        palette = body["presentation"]["palette"]
        for label, native in PALETTE_KEYS:
            if palette.get(label, "") != twin["presentation"]["palette"].get(label, ""):
                row[native] = palette.get(label, "")
        avatar = put_avatar(row, piece.body.portrait, media)
        found, renamed = sprites.put_sprites(row, piece.assets, media)
        indexes, exts = list(found), sprites.retyped(piece.assets, found)
        rules = (ASSETS_DROPPED, SPRITE_RENAMED, SPRITES_LISTED)
        declared = sprites.sprite_losses(
            piece.assets, indexes, renamed, rules, _WHO, exts, piece.body.portrait if avatar else None
        )
        data = compact_bytes(envelope)
        back = self.read(data, piece.id + self.extensions[0], None).pieces[0]
        # the read back is held to the sprites written, under the names Marinara gives them
        expected = dump_piece(piece)
        expected["assets"] = [
            expected["assets"][i]
            | {"name": renamed.get(i, piece.assets[i].name), "ext": exts.get(i, piece.assets[i].ext)}
            for i in indexes
        ]
        return Encoded(data, declared + readback_losses(expected, dump_piece(back), LOSS_RULES, FALLBACK))


register(MarinaraPersona())
