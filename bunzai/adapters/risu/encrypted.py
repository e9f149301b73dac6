"""RisuAI's encrypted cards (`rcc||rccv1||...` in a PNG's `chara`/`ccv3` chunk): refused, clearly.

RisuAI can seal a card with AES-GCM under a password (or a fixed "RISU_NONE" key) and
write `rcc||rccv1||<ciphertext>||<hash>||<meta>` where the card JSON would be. bunzai
does not decrypt cards: this adapter claims such a PNG above the card spokes only to say
so, with `unsupported`, instead of a confusing "corrupt base64" from them.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common import png
from bunzai.adapters.contract import Adapter, Decoded
from bunzai.adapters.registry import register
from bunzai.errors import BunzaiError

FORMAT_ID = "risu.card.encrypted"
MARK = b"rcc||"


def _sealed(data: bytes) -> bool:
    if not data.startswith(b"\x89PNG") or not png.has_text_keyword(data, ("chara", "ccv3")):
        return False
    file = png.read_png(data)
    return any(chunk.keyword.lower() in ("chara", "ccv3") and chunk.text.lstrip().startswith(MARK)
               for chunk in file.text_chunks())


class RisuEncryptedCard(Adapter):
    format_id = FORMAT_ID
    label = "RisuAI encrypted card (refused: bunzai does not decrypt cards)"
    kinds = ("character",)
    extensions = (".png",)
    container = "image"
    can_write = False
    engine = "risuai"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 1.0 if _sealed(data) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        what = name or "the card"
        if not _sealed(data):
            raise BunzaiError("unsupported", f"{what} is not a RisuAI encrypted card", "import it without --format")
        raise BunzaiError("unsupported", f"{what} is a RisuAI encrypted card (rcc||rccv1): bunzai does not decrypt "
                          "cards, with or without a password",
                          "open the card in RisuAI (with its password if it has one) and export it unencrypted")


register(RisuEncryptedCard())
