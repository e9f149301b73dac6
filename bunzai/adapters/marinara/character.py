"""Marinara Engine characters (`.marinara.json`, type `marinara_character`) <-> a character.

Marinara's native character export (characters.routes.ts, buildNativeCharacterEnvelope)
wraps a whole Character Card V2 in its envelope: `data: {spec: "chara_card_v2",
spec_version: "2.0", data: <the card's data>, metadata: {createdAt, updatedAt, comment}}`.
The card inside is read and written as a V2 card (common/card_doc), so this format is a
member of the card family: a character crossing from another card format keeps every key
of that card's `data`, and what V2 cannot hold is named pointer by pointer. The export
carries no image (Marinara keeps the avatar apart); its "compatible" export is a plain V2
card, which ccv2.json reads.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common import card_fields
from bunzai.adapters.common.card_doc import CardShape, card_losses, read_card, write_card_data
from bunzai.adapters.contract import Adapter, Decoded, Encoded, MediaSource
from bunzai.adapters.marinara.envelope import (
    FIXED_EXPORTED_AT,
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
TYPE = "marinara_character"
SHAPE = CardShape("Marinara Engine character", "v2", card_fields.V2_FIELDS)


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
        return read_card(inner_card(envelope, name), name, SHAPE, {"format": FORMAT_ID, "document": envelope})

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
        return Encoded(compact_bytes(envelope), card_losses(piece, SHAPE, self.format_id))


register(MarinaraCharacter())
