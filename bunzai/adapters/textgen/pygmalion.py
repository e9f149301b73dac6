"""The old Pygmalion / "ooba" JSON character: `{char_name, char_persona, char_greeting,
world_scenario, example_dialogue}`.

text-generation-webui folded these into its `context` on load; Agnai exports and imports
the same shape ("Textgen"). bunzai reads the five fields as written: char_persona is the
description, world_scenario the scenario, example_dialogue the example messages, with
`<USER>`/`<BOT>` read as `{{user}}`/`{{char}}` (see names.py). Written with a 4-space
indent, as the example file in textgen's repository is.
"""

from __future__ import annotations

import json
from typing import Any

from bunzai.adapters.common.drift import MISSING, as_str
from bunzai.adapters.common.fieldmap import put
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.contract import Adapter, Decoded, Encoded, MediaSource
from bunzai.adapters.inspect import parse_text
from bunzai.adapters.registry import register
from bunzai.adapters.textgen.character_losses import PORTRAIT_BESIDE, not_carried, respelled, unfilled_macros
from bunzai.adapters.textgen.names import read_text
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.model.character import Character

FORMAT_ID = "textgen.pygmalion.json"
# body field -> native key, in the order the example file writes them
FIELDS = {
    "description": "char_persona",
    "first_message": "char_greeting",
    "scenario": "world_scenario",
    "example_messages": "example_dialogue",
}


class PygmalionJson(Adapter):
    format_id = FORMAT_ID
    label = "Pygmalion / text-generation-webui JSON character"
    kinds = ("character",)
    extensions = (".json",)
    container = "text"
    portrait_beside = PORTRAIT_BESIDE

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if isinstance(parsed, dict) and "char_name" in parsed and "spec" not in parsed and "data" not in parsed:
            return 0.8
        return 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        if parsed is None:
            parsed = parse_text(data, name or "x.json")
        if not isinstance(parsed, dict):
            raise BunzaiError(
                "corrupt_file",
                f"{name or 'the file'} is not a Pygmalion character: it holds a JSON "
                f"{type(parsed).__name__}, not an object",
                "give the character's .json file",
            )
        document = copied(parsed)
        char_name = as_str(document.get("char_name"))
        body = {field: read_text(document.get(key, MISSING)) for field, key in FIELDS.items()}
        original = {"format": FORMAT_ID, "document": document}
        hint = "fix the value in the character's .json file"
        return Decoded([read_piece(Character, char_name, name, "character", body, original, hint)])

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        original = piece.original
        base = original.document if original is not None and original.format == FORMAT_ID else None
        document = copied(base) if isinstance(base, dict) else {"char_name": "", **{key: "" for key in FIELDS.values()}}
        put(document, "char_name", piece.name, as_str)
        body = piece.body
        for field, key in FIELDS.items():
            put(document, key, getattr(body, field), read_text)
        data = json.dumps(document, indent=4, ensure_ascii=False, allow_nan=False) + "\n"
        losses = not_carried(piece, frozenset(FIELDS), "A Pygmalion JSON character") + respelled(body, tuple(FIELDS))
        losses += unfilled_macros(piece, tuple(FIELDS))
        return Encoded(data.encode("utf-8"), losses)


register(PygmalionJson())
