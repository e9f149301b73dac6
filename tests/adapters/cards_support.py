"""Helpers shared by the card tests: read bytes into pieces, convert with the read's blobs."""

from __future__ import annotations

import base64
import json

from bunzai.adapters.common import png
from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece


def read(data: bytes, name: str, format_id: str | None = None):
    adapter, decoded = read_bytes(data, name, format_id)
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    return adapter, decoded, (lambda ref: blobs[ref.sha256])


def cross(data: bytes, name: str, target: str | None = None, edit=None):
    """Read a file and convert its first piece (optionally edited) to `target` (default: its own format)."""
    adapter, decoded, media = read(data, name)
    piece = decoded.pieces[0]
    if edit is not None:
        piece = edit(piece)
    return convert_piece(piece, target or adapter.format_id, media)


def card_png(chunks: dict[str, dict], image: bytes | None = None) -> bytes:
    """A PNG card holding `chunks` ({keyword: card JSON}) as base64 tEXt chunks."""
    base = png.read_png(image or png.default_portrait())
    added = [(key, base64.b64encode(json.dumps(doc).encode("utf-8"))) for key, doc in chunks.items()]
    return png.replace_text(base, set(chunks), added)


def png_documents(data: bytes) -> dict[str, dict]:
    return {text.keyword: json.loads(base64.b64decode(text.text)) for text in png.read_png(data).text_chunks()}


def edit_body(**changes):
    return lambda piece: piece.model_copy(update={"body": piece.body.model_copy(update=changes)})


def not_carried(crossing) -> list[str]:
    return [loss.pointer for loss in crossing.losses if loss.code == "crossing.not_carried"]
