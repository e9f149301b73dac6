"""RisuAI's encrypted cards (`rcc||rccv1||...` in a PNG's `chara`/`ccv3` chunk): refused, clearly.

RisuAI can seal a card with AES-GCM under a password (or a fixed "RISU_NONE" key) and
write `rcc||rccv1||<ciphertext>||<hash>||<meta>` where the card JSON would be. bunzai
does not decrypt cards: this adapter claims such a PNG above the card spokes only to say
so, with `unsupported`, instead of a confusing "corrupt base64" from them.
"""

from __future__ import annotations

import re
from typing import Any

from bunzai.adapters.common import png
from bunzai.adapters.contract import Adapter, Decoded
from bunzai.adapters.registry import register
from bunzai.errors import BunzaiError

FORMAT_ID = "risu.card.encrypted"
MARK = b"rcc||"
CARD_KEYWORDS = ("chara", "ccv3")


def _sealed(data: bytes, parsed: Any = None) -> bool:
    """Whether a chara or ccv3 text chunk starts with the rcc mark: chunk headers and those
    chunks only (the reader checks the whole file)."""
    if not data.startswith(b"\x89PNG"):
        return False
    walked = png.headers_of(data, parsed)
    if not walked.has_text(CARD_KEYWORDS):
        return False
    for chunk in walked.chunks:
        if chunk.keyword not in CARD_KEYWORDS:
            continue
        if chunk.type == b"tEXt":  # plain text: look at its start in place, without copying the chunk
            if _MARKED.match(data, chunk.data_start + len(chunk.keyword) + 1, chunk.data_end):
                return True
        elif png.text_of(data, chunk).text.lstrip().startswith(MARK):
            return True
    return False


_MARKED = re.compile(rb"\s*" + re.escape(MARK))  # the mark after any ASCII whitespace (as bytes.lstrip strips)


class RisuEncryptedCard(Adapter):
    format_id = FORMAT_ID
    label = "RisuAI encrypted card (refused: bunzai does not decrypt cards)"
    kinds = ("character",)
    extensions = (".png",)
    container = "image"
    can_write = False
    refuses_reading = True
    engine = "risuai"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 1.0 if _sealed(data, parsed) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        what = name or "the card"
        if data.startswith(b"\x89PNG") and png.headers_of(data, parsed).has_text(CARD_KEYWORDS):
            png.read_png(data)  # a damaged card says so first, as it did when the sniff checked it all
        if not _sealed(data, parsed):
            raise BunzaiError("unsupported", f"{what} is not a RisuAI encrypted card", "import it without --format")
        raise BunzaiError(
            "unsupported",
            f"{what} is a RisuAI encrypted card (rcc||rccv1): bunzai does not decrypt "
            "cards, with or without a password",
            "open the card in RisuAI (with its password if it has one) and export it unencrypted",
        )


register(RisuEncryptedCard())
