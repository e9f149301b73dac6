"""Writing legacy Backyard character PNGs, in the shape Backyard's own library writes and reads.

ahoylabs/byaf's `createCharacterPng` writes the portrait as a PNG and puts
base64(JSON.stringify(BackyardCharacterExportV4)) in the EXIF UserComment (exiftool: an
`eXIf` chunk, charset prefix `ASCII\\0\\0\\0`). Its `parseCharacterPng` accepts a document
only when it fits one of the zod shapes V1-V4 in `types/character-exports.ts`, so a new
document is a V4 with every key V4 requires. A piece read from a legacy PNG starts from its
escrowed document (its version, chats, samplers and lore item ids kept); when nothing the
canonical fields map changed, the file is written back byte for byte.

The portrait must be a PNG (bunzai does not re-encode images): another image type is
replaced by a plain default portrait, with a loss.
"""

from __future__ import annotations

import base64
import struct
import zlib
from typing import Any

from bunzai.adapters.backyard import byaf
from bunzai.adapters.backyard.byaf_docs import NEW_SCENARIO
from bunzai.adapters.backyard.legacy_png import BackyardLegacyPng, legacy_document as read_document
from bunzai.adapters.backyard.texts import disabled_entry_losses, double_brace_losses, iso_of, lore_items
from bunzai.adapters.common.jsjson import stringify
from bunzai.adapters.common.png import PNG_SIGNATURE, TEXT_TYPES, chunk_headers, default_portrait
from bunzai.adapters.common.losses import LossRule, readback_losses
from bunzai.adapters.contract import Encoded, Loss, MediaSource
from bunzai.jsondoc.values import copied
from bunzai.model import dump_piece

EXIF_IFD_POINTER = 0x8769
USER_COMMENT = 0x9286
ASCII_PREFIX = b"ASCII\x00\x00\x00"

_IMAGE_CODES = (
    "backyard.images.listed",
    "backyard.images.portrait",
    "backyard.field.not_carried",
    "backyard.profiles.dropped",
)
RULES = tuple(rule for rule in byaf.CHARACTER_RULES if rule.code not in _IMAGE_CODES) + (
    LossRule(
        "/body/portrait",
        "translated",
        "backyard.png.portrait",
        "the PNG itself is the portrait: its bytes hold the character, so they change whenever the "
        "character does (the image stays the same; a piece without a portrait gets a plain default image)",
    ),
    LossRule("/body/media", "dropped", "backyard.png.media", "a legacy Backyard PNG holds one image, the portrait"),
    LossRule("/assets", "dropped", "backyard.png.assets", "a legacy Backyard PNG holds one image, the portrait"),
    LossRule("/body/[^/]+", "dropped", "backyard.field.not_carried", "a Backyard character has no such field"),
    LossRule("/profiles", "dropped", "backyard.profiles.dropped", "a Backyard file has no per-platform profiles"),
)
PORTRAIT_TYPE = LossRule(
    "/body/portrait",
    "translated",
    "backyard.png.portrait_type",
    "a legacy Backyard card is a PNG and bunzai does not re-encode images: a portrait of another type is "
    "replaced by a plain default image",
)


def new_document(piece: Any) -> dict:
    """A V4 export holding every key V4's zod shape requires, at Backyard's defaults."""
    return {
        "character": {
            "Chat": [],
            "id": piece.id,
            "aiDisplayName": "",
            "aiName": "",
            "aiPersona": "",
            "basePrompt": "",
            "customDialogue": "",
            "firstMessage": None,
            "scenario": "",
            "isNSFW": False,
            "model": "",
            "temperature": NEW_SCENARIO["temperature"],
            "repeatPenalty": NEW_SCENARIO["repeatPenalty"],
            "repeatLastN": NEW_SCENARIO["repeatLastN"],
            "topK": NEW_SCENARIO["topK"],
            "topP": NEW_SCENARIO["topP"],
            "minP": NEW_SCENARIO["minP"],
            "minPEnabled": NEW_SCENARIO["minPEnabled"],
            "promptTemplate": None,
            "canDeleteCustomDialogue": False,
            "grammar": None,
            "loreItems": [],
        },
        "version": 4,
    }


def legacy_document(piece: Any) -> dict:
    original = piece.original
    own = (
        original is not None
        and original.format == "backyard.png"
        and isinstance(original.document, dict)
        and isinstance(original.document.get("character"), dict)
    )
    document = copied(original.document) if own else new_document(piece)
    character = document["character"]
    body = piece.body.model_dump(mode="json")
    character["aiDisplayName"] = piece.name
    character["aiName"] = body["nickname"] or piece.name
    character["aiPersona"] = body["description"]
    character["basePrompt"] = body["system_prompt"]
    character["customDialogue"] = body["example_messages"]
    if body["first_message"] or character.get("firstMessage") not in (None, ""):
        character["firstMessage"] = body["first_message"]
    character["scenario"] = body["scenario"]
    character["isNSFW"] = body["rating"] == "nsfw"
    character["createdAt"] = iso_of(body["creation_date"], character.get("createdAt"))
    character["updatedAt"] = iso_of(body["modification_date"], character.get("updatedAt"))
    items = lore_items(body["book"], character.get("loreItems"))
    for index, item in enumerate(items):  # the legacy shapes require an id on every lore item
        item.setdefault("id", f"{piece.id}-lore-{index}")
    character["loreItems"] = items
    return document


def exif_block(comment: bytes) -> bytes:
    """A big-endian TIFF block: IFD0 pointing at an Exif IFD holding only the UserComment."""
    exif_ifd = 8 + 2 + 12 + 4
    data_at = exif_ifd + 2 + 12 + 4
    return (
        b"MM\x00\x2a"
        + struct.pack(">I", 8)
        + struct.pack(">HHHII", 1, EXIF_IFD_POINTER, 4, 1, exif_ifd)
        + struct.pack(">I", 0)
        + struct.pack(">HHHII", 1, USER_COMMENT, 7, len(comment), data_at)
        + struct.pack(">I", 0)
        + comment
    )


def _card_text(image: bytes, header: Any) -> bool:
    """A character card's text chunk (chara, ccv3): left out, so no card reader claims the file too
    (Backyard's own writer re-encodes the image, which drops every text chunk)."""
    keyword = image[header.data_start : header.data_start + 6].partition(b"\0")[0].lower()
    return header.type in TEXT_TYPES and keyword in (b"chara", b"ccv3")


def with_exif(image: bytes, exif: bytes) -> bytes:
    """The PNG with its eXIf chunks replaced by one holding `exif`, placed before the first IDAT."""
    chunk = struct.pack(">I", len(exif)) + b"eXIf" + exif + struct.pack(">I", zlib.crc32(b"eXIf" + exif))
    parts, placed = [image[: len(PNG_SIGNATURE)]], False
    chunks = chunk_headers(image)
    for header in chunks:
        if header.type == b"eXIf" or _card_text(image, header):
            continue
        if not placed and header.type in (b"IDAT", b"IEND"):
            parts.append(chunk)
            placed = True
        parts.append(image[header.start : header.end])
    parts.append(image[chunks[-1].end :] if chunks else b"")  # anything after IEND, as it was
    return b"".join(parts)


def write_legacy_png(piece: Any, media: MediaSource) -> Encoded:
    losses: list[Loss] = []
    portrait = media(piece.body.portrait) if piece.body.portrait is not None else None
    if portrait is not None and not portrait.startswith(PNG_SIGNATURE):
        why = (
            f"a legacy Backyard card is a PNG and bunzai does not "
            f"re-encode images: this .{piece.body.portrait.ext} portrait is replaced by a plain "
            "default image"
        )
        losses.append(PORTRAIT_TYPE.at("/body/portrait", why))
        portrait = None
    image = portrait if portrait is not None else default_portrait()
    document = legacy_document(piece)
    if (
        piece.original is not None
        and piece.original.format == "backyard.png"
        and document == piece.original.document
        and read_document(image, "") == document
    ):
        data = image  # nothing changed: the file as it was
    else:
        text = stringify(document).encode("utf-8")
        payload = text if document.get("version") == 1 else base64.b64encode(text)
        data = with_exif(image, exif_block(ASCII_PREFIX + payload))
    if piece.original is None or not piece.original.format.startswith("backyard."):
        losses += double_brace_losses(piece.body.model_dump(mode="json"))
    back = BackyardLegacyPng().read(data, piece.id + ".png", None).pieces[0]
    found = readback_losses(
        byaf._without_disabled(dump_piece(piece)),
        dump_piece(back),
        RULES,
        byaf.FALLBACK,
        [loss for loss in losses if not loss.pointer.startswith("/body/book/entries/")],
    )
    disabled = disabled_entry_losses(piece.body.book.model_dump(mode="json") if piece.body.book else None)
    return Encoded(data, losses + disabled + byaf._renumbered(found, piece))
