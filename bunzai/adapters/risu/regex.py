"""RisuAI's regex export `{type: "regex", data: [customscript ...]}` <-> a canonical regex set.

RisuAI writes it as compact JSON (`regexscript_export.json`) and reads any object with
`type: "regex"` and a `data` list. Scripts map as regex_scripts says.
"""

from __future__ import annotations

import json
from typing import Any

from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.registry import register
from bunzai.adapters.risu.regex_scripts import read_script, script_losses, write_script
from bunzai.adapters.risu.shared_losses import ASSETS, NAME_FILE_NAME, PROFILES
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.model.regex import RegexRule, RegexSet

FORMAT_ID = "risu.regex"
# The set's own fields a list of scripts has no place for, by field.
SET_FIELD_DROPPED = {
    field: LossRule(f"/body/{field}", "dropped", f"risu.regex.set_{field}", f"a RisuAI script list has no {field}")
    for field in ("description", "extensions")
}


def is_risu_regex(parsed: Any) -> bool:
    return isinstance(parsed, dict) and parsed.get("type") == "regex" and isinstance(parsed.get("data"), list)


def read_scripts(raw: Any) -> list[dict]:
    return [read_script(item) for item in (raw if isinstance(raw, list) else [])]


def write_scripts(base: Any, rules: list[dict]) -> list[dict]:
    old = base if isinstance(base, list) else []
    return [write_script(old[index] if index < len(old) else None, rule) for index, rule in enumerate(rules)]


def set_losses(body: dict, prefix: str) -> list[Loss]:
    """What a list of RisuAI scripts cannot carry of a canonical regex set body."""
    default = RegexRule().model_dump(mode="json")
    losses = []
    for index, rule in enumerate(body["rules"]):
        losses += script_losses(rule, index, f"{prefix}/rules", default)
    for field in ("description", "extensions"):
        if body[field]:
            losses.append(SET_FIELD_DROPPED[field].at(f"{prefix}/{field}"))
    return losses


def name_loss(piece: Any) -> list[Loss]:
    if piece.name != piece.id:
        return [NAME_FILE_NAME.at("/name")]
    return []


class RisuRegex(Adapter):
    format_id = FORMAT_ID
    label = "RisuAI regex script export"
    kinds = ("regex",)
    extensions = (".json",)
    container = "text"
    engine = "risuai"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 0.9 if is_risu_regex(parsed) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        if not is_risu_regex(parsed):
            raise BunzaiError(
                "unsupported",
                f"{name or 'the file'} is not a RisuAI regex export",
                'a RisuAI regex export is {"type": "regex", "data": [...]}',
            )
        title = name.rsplit("/", 1)[-1].rsplit(".", 1)[0] if name else "RisuAI regex"
        piece = read_piece(
            RegexSet,
            title,
            name,
            "regex",
            {"rules": read_scripts(parsed["data"])},
            {"format": FORMAT_ID, "document": parsed},  # the read's own (see Adapter.read)
            "fix the script in RisuAI",
        )
        return Decoded([piece])

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        original = piece.original
        own = original is not None and original.format == FORMAT_ID and is_risu_regex(original.document)
        document = copied(original.document) if own else {"type": "regex", "data": []}
        body = piece.body.model_dump(mode="json")
        document["data"] = write_scripts(document["data"] if own else None, body["rules"])
        losses = set_losses(body, "/body") + name_loss(piece)
        if piece.assets:
            losses.append(ASSETS.at("/assets", "a RisuAI regex export carries no media"))
        if piece.profiles:
            losses.append(PROFILES.at("/profiles", "a RisuAI regex export has no per-platform profiles"))
        return Encoded(json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), losses)


register(RisuRegex())
