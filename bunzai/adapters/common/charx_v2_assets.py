"""A RisuAI V2 card's emotions and additional assets, crossing into a CHARX as RisuAI carries them.

A RisuAI V2 card keeps its emotion images and additional assets in `extensions.risuai`:
`emotions: [[name, uri]]` and `additionalAssets: [[name, uri, ext]]`, the uri `__asset:N`
(the PNG's `chara-ext-asset_:N` chunk) or the file's base64. RisuAI's import reads them only
from a V2 card (importCharacterCardSpec), and its CHARX export (createBaseV3) writes them as
V3 `assets` entries, after the card's own assets and before the main icon: each additional
asset `{type: x-risu-asset, name, ext: its third item or png}`, then each emotion
`{type: emotion, name, ext: png}`; `extensions.risuai` keeps neither list. A crossing into a
CHARX does the same, so RisuAI's import of the CHARX shows the same images. An item whose
file cannot be found (no such chunk, no base64) stays in `extensions.risuai` as written.
Voices (`vits`) are left alone: RisuAI's own CHARX export writes `vits: {}`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bunzai import limits
from bunzai.adapters.common import png
from bunzai.adapters.common.card_assets import decode_data_uri, with_assets
from bunzai.adapters.common.charx_members import file_type
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Blob, Loss, MediaSource
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied

# RisuAI's export order (createBaseV3): additional assets, then emotions.
_LISTS = (("additionalAssets", "x-risu-asset"), ("emotions", "emotion"))
_CHUNK_URI = "__asset:"
AS_ASSETS = LossRule(
    "/body/extensions/risuai/(?:emotions|additionalAssets)",
    "translated",
    "charx.risu_v2.as_assets",
    "a RisuAI V2 card's emotion images and additional assets are written as the CHARX's assets entries "
    "(type emotion, x-risu-asset), as RisuAI's own CHARX export writes them: they read back as assets, no "
    "longer in extensions.risuai",
)


@dataclass
class Carried:
    """The piece to write (the carried items as asset links), the media giving their bytes, the losses."""

    piece: Any
    media: MediaSource
    losses: list[Loss] = field(default_factory=list)


def risu_v2_assets(piece: Any, media: MediaSource, format_id: str) -> Carried:
    """`piece` with its RisuAI V2 emotions and additional assets as asset links, when it crosses
    into `format_id` (a piece read from that very format is written as it was)."""
    risu = piece.body.extensions.get("risuai")
    original = piece.original
    if (original is not None and original.format == format_id) or not isinstance(risu, dict):
        return Carried(piece, media)
    if not any(isinstance(risu.get(key), list) and risu.get(key) for key, _role in _LISTS):
        return Carried(piece, media)
    files = _Files(piece, media)
    links, left, losses = [], copied(risu), []
    for key, role in _LISTS:
        items = risu.get(key)
        if not isinstance(items, list) or not items:
            continue
        kept = []
        for item in items:
            link = _link(item, role, files)
            if link is None:
                kept.append(copied(item))
            else:
                links.append(link)
        if len(kept) < len(items):
            losses.append(AS_ASSETS.at(f"/body/extensions/risuai/{key}"))
            if kept:
                left[key] = kept
            else:
                del left[key]
    if not links:
        return Carried(piece, media)
    extensions = dict(piece.body.extensions) | {"risuai": left}
    carried = piece.model_copy(update={"body": piece.body.model_copy(update={"extensions": extensions})})
    before = [link.model_dump(mode="json") for link in piece.assets]
    return Carried(with_assets(carried, before + links, "the RisuAI V2 card"), files.media, losses)


def _link(item: object, role: str, files: _Files) -> dict | None:
    """An AssetLink (JSON form) for one `[name, uri, ext?]` item, None when its file is not found."""
    if not isinstance(item, list) or len(item) < 2 or not isinstance(item[0], str) or not isinstance(item[1], str):
        return None
    data = files.bytes_of(item[1])
    if not data:
        return None
    third = item[2] if role == "x-risu-asset" and len(item) > 2 and isinstance(item[2], str) else ""
    ext = third or "png"  # RisuAI: `asset[2] || 'png'` for an additional asset, `png` for an emotion
    stored_ext, mime = file_type(ext, "")
    return {"role": role, "name": item[0], "ext": ext, "asset": files.store(data, stored_ext, mime), "uri": None}


class _Files:
    """The bytes an item's uri names: an asset chunk of the escrowed PNG (or of the portrait,
    which keeps only the chunks nothing in the card names), a data: uri, or base64."""

    def __init__(self, piece: Any, source: MediaSource):
        self.piece, self.source = piece, source
        self._chunks: dict[str, bytes] | None = None
        self.held: dict[str, bytes] = {}  # sha256 -> bytes of the files found here

    def media(self, ref: Any) -> bytes:
        held = self.held.get(ref.sha256)
        return held if held is not None else self.source(ref)

    def store(self, data: bytes, ext: str, mime: str) -> dict:
        blob = Blob(data, ext, mime)
        self.held[blob.sha256] = data
        return {"sha256": blob.sha256, "ext": ext, "mime": mime}

    def bytes_of(self, uri: str) -> bytes | None:
        try:
            if uri.startswith(_CHUNK_URI):
                return self.chunks().get(uri[len(_CHUNK_URI) :])
            if uri[:5].lower() == "data:":
                return decode_data_uri(uri, "a RisuAI V2 asset")[0]
            if "://" in uri or len(uri) > limits.CARD_DATA_URI_MAX_BYTES * 4 // 3 + 4:
                return None  # a link (RisuAI fetches such only from its hub), or past the size bunzai stores
            return png.card_base64(uri.encode("ascii", "ignore"), "a RisuAI V2 asset")
        except BunzaiError:
            return None

    def chunks(self) -> dict[str, bytes]:
        """key -> the bytes of each asset chunk, from the first PNG (escrow, then portrait) holding any."""
        if self._chunks is None:
            self._chunks = {}
            original = self.piece.original
            # The card's own image (`card.png`), never an archive's members (assets/...).
            files = original.files.items() if original is not None else ()
            refs = [ref for name, ref in files if ref.ext == "png" and "/" not in name]
            if self.piece.body.portrait is not None:
                refs.append(self.piece.body.portrait)
            for ref in refs:
                try:
                    self._chunks = _asset_chunks(self.source(ref))
                except (BunzaiError, KeyError):
                    continue
                if self._chunks:
                    break
        return self._chunks


def _asset_chunks(data: bytes) -> dict[str, bytes]:
    """key -> bytes of each asset chunk (png.asset_chunks) of the PNG `data`."""
    image = png.read_png(data, "the card's image")
    found: dict[str, bytes] = {}
    for key, chunk in png.asset_chunks(image).items():
        text = png.text_of(image.data, chunk)
        if len(text.text) > limits.CARD_DATA_URI_MAX_BYTES * 4 // 3 + 4:
            continue
        try:
            found[key] = png.card_base64(text.text, text.keyword)
        except BunzaiError:
            continue
    return found
