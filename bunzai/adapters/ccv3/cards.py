"""Character Card V1, V2 and V3 as JSON files.

V1 is the six TavernAI fields at the top level; V2 and V3 nest the fields in `data` under
`spec`/`spec_version`. Old Chub "hybrids" (`spec` with the fields at the top level, no
`data`) read as the version their `spec` names and are written back in their own shape.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.ccv3.json_io import escrowed, json_bytes, json_object
from bunzai.adapters.common import card_fields
from bunzai.adapters.common.card_doc import V1, CardShape, card_losses, read_card, write_card_data
from bunzai.adapters.contract import Adapter, Decoded, Encoded, MediaSource
from bunzai.adapters.registry import register
from bunzai.jsondoc.values import copied

V1_KEYS = ("name", "description", "personality", "scenario", "first_mes", "mes_example")
V2 = CardShape("Character Card V2", "v2", card_fields.V2_FIELDS)
V3 = CardShape("Character Card V3", "v3", card_fields.V3_FIELDS, assets=True)


class _SpecCard(Adapter):
    kinds = ("character",)
    extensions = (".json",)
    container = "text"
    spec = ""
    spec_version = ""
    shape = V2

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 0.8 if isinstance(parsed, dict) and parsed.get("spec") == self.spec else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        document = json_object(data, name, parsed, self.label)
        return read_card(document, name, self.shape, {"format": self.format_id, "document": document})

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        base = escrowed(piece, self.format_id)
        template = card_fields.v3_data_template() if self.shape.v3 else card_fields.v2_data_template()
        if base is not None and not isinstance(base.get("data"), dict):  # a hybrid: fields at the top level
            document = write_card_data(base, template, piece, self.shape, media)
        else:
            document = copied(base) if base is not None else {"spec": self.spec, "spec_version": self.spec_version}
            document["data"] = write_card_data(document.get("data"), template, piece, self.shape, media)
        return Encoded(json_bytes(document), card_losses(piece, self.shape, self.format_id))


class CardV2Json(_SpecCard):
    format_id = "ccv2.json"
    label = "Character Card V2 (JSON)"
    spec, spec_version, shape = "chara_card_v2", "2.0", V2


class CardV3Json(_SpecCard):
    format_id = "ccv3.json"
    label = "Character Card V3 (JSON)"
    spec, spec_version, shape = "chara_card_v3", "3.0", V3

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 0.9 if isinstance(parsed, dict) and parsed.get("spec") == self.spec else 0.0


class CardV1Json(Adapter):
    format_id = "ccv1.json"
    label = "Character Card V1 (JSON)"
    kinds = ("character",)
    extensions = (".json",)
    container = "text"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not isinstance(parsed, dict) or "spec" in parsed or "data" in parsed:
            return 0.0
        return 0.6 if all(isinstance(parsed.get(key), str) for key in V1_KEYS) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        document = json_object(data, name, parsed, self.label)
        return read_card(document, name, V1, {"format": self.format_id, "document": document})

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        template = {key: "" for key in V1_KEYS}
        document = write_card_data(escrowed(piece, self.format_id), template, piece, V1, media)
        return Encoded(json_bytes(document), card_losses(piece, V1, self.format_id))


register(CardV1Json())
register(CardV2Json())
register(CardV3Json())
