"""A Character Card V3 Agnai can import: the V3 card with the V1 fields duplicated at the root.

Agnai does not recognise `chara_card_v3` (port.ts getImportFormat): it takes a V3 card only
through its V1 fields at the top level, read as a TavernAI V1 card (name, first_mes,
description + personality as the persona text, scenario, mes_example). This writer keeps
the whole V3 card in `data`, for every other app, and adds those six fields at the root;
the losses name what Agnai itself will not take from it. Files of this shape are claimed
by the plain CCv3 reader on import (they are valid V3 cards); this format reads them when
named.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.agnai import import_losses
from bunzai.adapters.agnai.json_io import ENGINE, agnai_json_bytes, agnai_object, escrowed
from bunzai.adapters.agnai.root_fields import sync_root, with_root_first
from bunzai.adapters.common import card_fields
from bunzai.adapters.common.card_doc import CardShape, card_losses, read_card, write_card_data
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.registry import register
from bunzai.jsondoc.values import copied
from bunzai.model.character import CharacterBody

FORMAT_ID = "agnai.card.v3.json"
SHAPE = CardShape("Character Card V3 for Agnai", "v3", card_fields.V3_FIELDS, assets=True)
# What Agnai reads of such a file: the V1 fields (personality folded into the persona).
_READ_BY_AGNAI = ("description", "personality", "scenario", "first_message", "example_messages")
# What the file keeps in `data` for other apps and Agnai skips.
_SKIPPED_BY_AGNAI = sorted(
    (set(card_fields.V3_FIELDS) | {"depth_prompt", "book", "links", "behavior_scripts", "extensions", "portrait"})
    - set(_READ_BY_AGNAI)
)
READ_AS_V1 = LossRule(
    "(?:/assets|/body/(?:" + "|".join([*_SKIPPED_BY_AGNAI, "settings/(?:talkativeness|favorite)"]) + "))",
    "dropped",
    "agnai.v3.read_as_v1",
    "Agnai reads a V3 card only through its V1 fields at the top level",
)


def read_as_v1_losses(piece: Any) -> list[Loss]:
    """The V3 fields Agnai skips, because it reads the card as V1."""
    body = piece.body.model_dump(mode="json")
    default = CharacterBody().model_dump(mode="json")
    losses = []
    for field in _SKIPPED_BY_AGNAI:
        if body[field] != default[field] and not (field == "links" and not any(body["links"].values())):
            why = f"the file keeps {field} in data for other apps, but {READ_AS_V1.why}"
            losses.append(READ_AS_V1.at(f"/body/{field}", why))
    for field in ("talkativeness", "favorite"):
        if body["settings"][field] != default["settings"][field]:
            losses.append(READ_AS_V1.at(f"/body/settings/{field}"))
    if piece.assets:
        why = "Agnai reads a V3 card only through its V1 fields; it ignores data.assets"
        losses.append(READ_AS_V1.at("/assets", why))
    return losses


class AgnaiCardV3(Adapter):
    engine = ENGINE
    format_id = FORMAT_ID
    label = "Character Card V3 for Agnai (V1 fields at the root)"
    kinds = ("character",)
    extensions = (".json",)
    container = "text"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 0.0  # a valid V3 card: ccv3.json claims it on import (see the module docstring)

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        document = agnai_object(data, name, parsed, "a V3 card")
        return read_card(document, name, SHAPE, {"format": FORMAT_ID, "document": document})

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        base = escrowed(piece, FORMAT_ID)
        document = copied(base) if base is not None else {"spec": "chara_card_v3", "spec_version": "3.0"}
        document["data"] = write_card_data(document.get("data"), card_fields.v3_data_template(), piece, SHAPE, media)
        sync_root(document, document["data"])
        if base is None:
            document = with_root_first(document)
        losses = card_losses(piece, SHAPE, self.format_id)
        if import_losses.crossing_into(piece, FORMAT_ID):
            losses += import_losses.personality_folded(piece) + read_as_v1_losses(piece)
            losses += import_losses.rewritten_text(piece, ("first_message", "scenario", "example_messages"))
        return Encoded(agnai_json_bytes(document), losses)


register(AgnaiCardV3())
