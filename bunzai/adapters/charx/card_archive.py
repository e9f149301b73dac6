"""CHARX (`.charx`): a Character Card V3 as a ZIP, `card.json` at the root, media as members.

An archive whose card.json sits in a folder (`Folder/card.json`, a folder zipped whole) is
refused, as RisuAI and the spec refuse it, by an error that names that member.
Read: the card reads as the other card spokes read it (card_doc: the character, and its
embedded book as a linked lorebook); `embeded://` assets become stored assets. Every
member but card.json (assets, `module.risum`, `x_meta/*`, app JSON at the root, members
nothing names) is kept byte for byte in the escrow under its member name. A JPEG with the
ZIP appended (RisuAI's polyglot) reads like the ZIP; hostile archives are refused by
zipsafe before anything is decompressed past its limits. The reading and writing live in
bunzai.adapters.common.charx_card, shared with RisuAI's CHARX (`risu.charx`).
Write: card.json (4-space JSON, as RisuAI writes it) over the escrowed card, the stored
assets once each, and, when the piece came from a CHARX, every escrowed member back under
its name; names are UTF-8 (as RisuAI writes them), nothing is encrypted, the same piece gives
the same bytes.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.charx_card import no_root_card, read_charx, write_charx
from bunzai.adapters.common.charx_members import CARD_MEMBER, nested_card
from bunzai.adapters.common.charx_v2_assets import risu_v2_assets
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
        # A hostile or damaged archive raises here, and so does one whose card.json is in a folder:
        # the inspector reports it when nothing else claims the file.
        if parsed is not None:
            return 0.0
        archive = open_archive(data)
        if archive.has(CARD_MEMBER):
            return 0.9
        if nested_card(archive.names()) is not None:
            raise no_root_card(archive.names(), name or "the archive")
        return 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        return read_charx(data, name, FORMAT_ID)

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        v2 = risu_v2_assets(piece, media, FORMAT_ID)  # a RisuAI V2 card's emotions as assets, as RisuAI writes them
        encoded = write_charx(v2.piece, v2.media, FORMAT_ID)
        encoded.losses += v2.losses
        return encoded


register(CharxCard())
