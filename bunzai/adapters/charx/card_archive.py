"""CHARX (`.charx`): a Character Card V3 as a ZIP, `card.json` at the root, media as members.

Read: the card reads as the other card spokes read it (card_doc: the character, and its
embedded book as a linked lorebook); `embeded://` assets become stored assets. Every
member but card.json (assets, `module.risum`, `x_meta/*`, app JSON at the root, members
nothing names) is kept byte for byte in the escrow under its member name. A JPEG with the
ZIP appended (RisuAI's polyglot) reads like the ZIP; hostile archives are refused by
zipsafe before anything is decompressed past its limits. The reading and writing live in
bunzai.adapters.common.charx_card, shared with RisuAI's CHARX (`risu.charx`).
Write: card.json (4-space JSON, as RisuAI writes it) over the escrowed card, the stored
assets once each, and, when the piece came from a CHARX, every escrowed member back under
its name; names are ASCII, nothing is encrypted, the same piece gives the same bytes.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.charx_card import read_charx, write_charx
from bunzai.adapters.common.charx_members import CARD_MEMBER
from bunzai.adapters.common.zipsafe import open_archive
from bunzai.adapters.contract import Adapter, Decoded, Encoded, MediaSource
from bunzai.adapters.registry import register

FORMAT_ID = "charx"


class CharxCard(Adapter):
    format_id = FORMAT_ID
    label = "CHARX character card (Character Card V3 archive)"
    kinds = ("character",)
    extensions = (".charx",)
    container = "archive"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        # A hostile or damaged archive raises here: the inspector reports it when nothing else claims the file.
        return 0.9 if parsed is None and open_archive(data).has(CARD_MEMBER) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        return read_charx(data, name, FORMAT_ID)

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        return write_charx(piece, media, FORMAT_ID)


register(CharxCard())
