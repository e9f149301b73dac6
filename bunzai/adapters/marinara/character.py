"""Marinara Engine characters (`.marinara.json`, type `marinara_character`) <-> a character.

Marinara's native character export (characters.routes.ts, buildNativeCharacterEnvelope)
wraps a whole Character Card V2 in its envelope: `data: {spec: "chara_card_v2",
spec_version: "2.0", data: <the card's data>, metadata: {createdAt, updatedAt, comment}}`.
The card inside is read and written as a V2 card (common/card_doc), so this format is a
member of the card family: a character crossing from another card format keeps every key
of that card's `data`, and what V2 cannot hold is named pointer by pointer. Today's export
carries the avatar as a data: URL beside the card (the portrait), its sprites (the
expression images: assets of role `emotion`, marinara/sprites.py) and its gallery (kept in the
escrow); its "compatible" export is a plain V2 card, which ccv2.json reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bunzai.adapters.common import card_fields, st_regex_losses
from bunzai.adapters.common.card_doc import (
    CARD_ASSETS_NOT_CARRIED,
    CardShape,
    card_losses,
    read_card,
    write_card_data,
)
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.common.st_regex_losses import SCRIPT, st_regex_rule
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.marinara import book_import, sprites
from bunzai.adapters.marinara.envelope import (
    FIXED_EXPORTED_AT,
    avatar_image,
    put_avatar,
    compact_bytes,
    envelope_of,
    envelope_type,
    escrowed_envelope,
    new_envelope,
)
from bunzai.adapters.registry import register
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied

FORMAT_ID = "marinara.character"
AVATAR_TYPES = "Marinara keeps a PNG, JPEG, GIF, WebP or AVIF avatar only"
TYPE = "marinara_character"
SHAPE = CardShape("Marinara Engine character", "v2", card_fields.V2_FIELDS)

# Marinara runs only the regex scripts of its own table (generate.routes.ts, regexScriptsStore);
# its character import (st-character.importer.ts, marinara.importer.ts) keeps a card's
# extensions as data and makes no script of extensions.regex_scripts.
_ST_REGEX = (
    "Marinara never runs {script} (the file keeps it in the card's extensions, regex_scripts, for other apps): it "
    "runs only the scripts of its own regex list"
)
SPRITE_RENAMED = LossRule(
    r"/assets/\d+/(?:name|ext)",
    "translated",
    "marinara.character.sprite.renamed",
    "Marinara names a sprite by its file's stem made safe, each name once",
)
SPRITES_LISTED = LossRule(
    "/assets",
    "translated",
    "marinara.character.sprites.listed",
    "the media list reads back as the sprites alone, in their order",
)
ST_REGEX_NOT_RUN = st_regex_rule("marinara.import.st_regex_not_run", _ST_REGEX, f"{SCRIPT} a character carries")


def inner_card(envelope: dict, name: str) -> dict:
    card = envelope["data"]
    if not isinstance(card.get("data"), dict):
        raise BunzaiError(
            "corrupt_file",
            f"{name or 'the file'} is a Marinara character export without its card (data.data)",
            "export the character again from Marinara Engine",
        )
    return card


class MarinaraCharacter(Adapter):
    format_id = FORMAT_ID
    label = "Marinara Engine character"
    kinds = ("character",)
    extensions = (".marinara.json", ".json")
    container = "text"
    engine = "marinara"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 0.95 if envelope_type(parsed) == TYPE and isinstance(parsed["data"].get("data"), dict) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        envelope = envelope_of(data, name, parsed, TYPE)
        card = inner_card(envelope, name)
        # Today's export carries the avatar and the sprites as data: URLs (buildNativeCharacterEnvelope);
        # its gallery stays in the escrow.
        place = name or "the character"
        avatar, warning = avatar_image(card.get("avatar"), place, "marinara.character.avatar")
        portrait = avatar.ref_json() if avatar is not None else None
        links, blobs, warnings = sprites.read_sprites(card.get("sprites"), place, "marinara.character.sprite")
        original = {"format": FORMAT_ID, "document": envelope}
        blobs = ([avatar] if avatar is not None else []) + blobs
        decoded = read_card(card, name, SHAPE, original, portrait, blobs, links)
        decoded.warnings += ([warning] if warning else []) + warnings
        return decoded

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        base = escrowed_envelope(piece, FORMAT_ID, TYPE)
        if base is not None and isinstance(base["data"].get("data"), dict):
            envelope = copied(base)
        else:
            envelope = new_envelope(
                TYPE,
                {
                    "spec": "chara_card_v2",
                    "spec_version": "2.0",
                    "data": {},
                    "metadata": {"createdAt": FIXED_EXPORTED_AT, "updatedAt": FIXED_EXPORTED_AT, "comment": ""},
                },
            )
            base = None
        card = envelope["data"]
        card["data"] = write_card_data(
            card["data"] if base is not None else None, card_fields.v2_data_template(), piece, SHAPE, media
        )
        losses = card_losses(piece, SHAPE, self.format_id) + st_regex_not_run(piece)
        losses += book_losses(piece, card["data"].get("character_book"))
        carried = put_avatar(card, piece.body.portrait, media)
        losses = [
            loss if loss.pointer != "/body/portrait" else replace(loss, why=AVATAR_TYPES)
            for loss in losses
            if loss.pointer != "/body/portrait" or not carried
        ]
        found, renamed = sprites.put_sprites(card, piece.assets, media)
        losses = [loss for loss in losses if loss.pointer != "/assets"] + sprites.sprite_losses(
            piece.assets,
            list(found),
            renamed,
            (CARD_ASSETS_NOT_CARRIED, SPRITE_RENAMED, SPRITES_LISTED),
            "a Marinara character",
            sprites.retyped(piece.assets, found),
            piece.body.portrait if carried else None,
        )
        return Encoded(compact_bytes(envelope), losses)


def st_regex_not_run(piece: Any) -> list[Loss]:
    """A loss per SillyTavern regex script of a character crossing in. One the Marinara file it
    was read from already held (edited since or not) notes nothing new on the way back; one added
    since does, a copy of a held one too."""
    return st_regex_losses.st_regex_not_run(piece, ST_REGEX_NOT_RUN, _ST_REGEX, _held(_held_scripts(piece)))


def _script_id(payload: Any) -> str | None:
    """A SillyTavern regex script's id: a uuid it gets when made and keeps when edited
    (saveRegexScript, public/scripts/extensions/regex/index.js); None where it has none."""
    found = payload.get("id") if isinstance(payload, dict) else None
    return found if isinstance(found, str) and found else None


def _held(scripts: list) -> Callable[[int, Any], bool]:
    """Whether a script (asked in order) is one of `scripts`: matched by id where both have one,
    else by content; each of `scripts` stands for one script only, so a copy added beside it is new."""
    left = list(scripts)

    def held(_index: int, script: Any) -> bool:
        key = _script_id(script.payload)
        for place, was in enumerate(left):
            known = _script_id(was)
            if (key == known) if key is not None and known is not None else was == script.payload:
                del left[place]
                return True
        return False

    return held


def _held_scripts(piece: Any) -> list:
    """The regex scripts of the Marinara file the character was read from (`extensions.regex_scripts`
    of its card), or none."""
    original = piece.original
    if original is None or original.format != FORMAT_ID or not isinstance(original.document, dict):
        return []
    card = original.document.get("data")
    data = card.get("data") if isinstance(card, dict) else None
    extensions = data.get("extensions") if isinstance(data, dict) else None
    scripts = extensions.get("regex_scripts") if isinstance(extensions, dict) else None
    return scripts if isinstance(scripts, list) else []


def book_losses(piece: Any, written: Any) -> list[Loss]:
    """What the Marinara lorebook made from the card's book (`written`, as the card holds it) does
    not keep (book_import). A character that came from Marinara already had its book read there,
    so writing it back notes nothing new (as for the book's positions, card_doc.card_losses)."""
    book = piece.body.book
    if book is None or (piece.original is not None and piece.original.format == FORMAT_ID):
        return []
    return book_import.book_losses(book, written)


register(MarinaraCharacter())
