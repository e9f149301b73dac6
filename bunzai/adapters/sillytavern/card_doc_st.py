"""The card document SillyTavern writes: a V2 object plus the V1 copies at the top level.

Used by the PNG card (`chara` chunk, and the `ccv3` chunk, which is the same object
relabelled) and by the JSON card export. Key order and defaults follow `charaFormatData`
(src/endpoints/characters.js); `chat` (the current chat file) is never written, as newer
SillyTavern removes it on export too.
"""

from __future__ import annotations

from datetime import datetime, UTC
from typing import Any

from bunzai.adapters.common import card_fields
from bunzai.adapters.common.card_doc import CardShape, write_card_data
from bunzai.adapters.common.drift import as_bool, as_float, as_str, as_str_list
from bunzai.adapters.common.fieldmap import put
from bunzai.adapters.contract import MediaSource
from bunzai.jsondoc.values import copied

ST_V2 = CardShape("SillyTavern card", "v2", card_fields.V2_FIELDS, flavor="sillytavern")
# The ccv3 chunk: every V3 field, but no asset list (a PNG card is its own image).
ST_V3 = CardShape("SillyTavern PNG card", "v3", card_fields.V3_FIELDS, image=True, flavor="sillytavern")


def data_template() -> dict:
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
        "tags": [],
        "creator": "",
        "character_version": "",
        "alternate_greetings": [],
        "extensions": {
            "talkativeness": 0.5,
            "fav": False,
            "world": "",
            "depth_prompt": {"prompt": "", "depth": 4, "role": "system"},
        },
        "group_only_greetings": [],
    }


def _document_template() -> dict:
    return {
        "name": "",
        "description": "",
        "personality": "",
        "first_mes": "",
        "avatar": "none",
        "mes_example": "",
        "scenario": "",
        "talkativeness": 0.5,
        "fav": False,
        "creatorcomment": "",
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {},
        "tags": [],
    }


def st_document(base: Any, piece: Any, media: MediaSource, shape: CardShape = ST_V2) -> dict:
    """The V2 document for `piece`, written over `base` (an escrowed document) when there is one."""
    doc = copied(base) if isinstance(base, dict) else _document_template()
    doc["data"] = write_card_data(
        doc.get("data") if isinstance(base, dict) else None, data_template(), piece, shape, media
    )
    sync_mirrors(doc, piece, add_missing=True)
    return doc


def relabel_v3(chara: dict) -> dict:
    """The ccv3 payload as SillyTavern writes it: the V2 object with spec and version swapped."""
    doc = copied(chara)
    doc["spec"], doc["spec_version"] = "chara_card_v3", "3.0"
    return doc


def sync_mirrors(doc: dict, piece: Any, add_missing: bool) -> None:
    """The V1 copies at the top level, kept equal to the card (ST reads data.* first)."""
    body = piece.body
    mirrors: list[tuple[str, Any, Any]] = [
        ("name", piece.name, as_str),
        ("description", body.description, as_str),
        ("personality", body.personality, as_str),
        ("scenario", body.scenario, as_str),
        ("first_mes", body.first_message, as_str),
        ("mes_example", body.example_messages, as_str),
        ("creatorcomment", body.creator_notes, as_str),
        ("talkativeness", body.settings.talkativeness, lambda raw: as_float(raw, 0.5)),
        ("fav", body.settings.favorite, lambda raw: as_bool(raw, False)),
        ("tags", list(body.tags), as_str_list),
    ]
    for key, value, read in mirrors:
        if key in doc or add_missing:
            put(doc, key, value, read)
    if add_missing and "avatar" not in doc:
        doc["avatar"] = "none"
    if add_missing and "create_date" not in doc and body.creation_date:
        doc["create_date"] = datetime.fromtimestamp(body.creation_date, UTC).isoformat()
