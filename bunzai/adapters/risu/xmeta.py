"""`x_meta/<name>.json`, the note RisuAI's CHARX export writes beside each asset it adds.

For a PNG: its tEXt chunks as {keyword: text} (JSON indented by 4), or {"type": "PNG"}
when it has none; for anything else {"type": <checkImageType>} (JPEG, GIF, BMP, AVIF,
WEBP or Unknown), compact. As RisuAI's PngChunk reader does, only tEXt counts, the
keyword is looked for in the first 70 bytes and both halves read as UTF-8.
"""

from __future__ import annotations

from bunzai.adapters.common.jsjson import stringify
from bunzai.adapters.common.png import chunk_headers

_KEYWORD_SPAN = 70  # RisuAI's PngChunk looks for the keyword's NUL within this many bytes


def image_type(data: bytes) -> str:
    """RisuAI's checkImageType."""
    if data[:2] == b"\xff\xd8" and data[-2:] == b"\xff\xd9":
        return "JPEG"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:4] == b"GIF8" and data[4:6] in (b"7a", b"9a"):
        return "GIF"
    if data[:2] == b"BM":
        return "BMP"
    if data[4:12] == b"ftypavif":
        return "AVIF"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return "Unknown"


def _text_chunks(data: bytes) -> dict[str, str]:
    found: dict[str, str] = {}
    for chunk in chunk_headers(data):  # headers only: a damaged PNG gives what it gives, as in RisuAI
        if chunk.type != b"tEXt":
            continue
        body = data[chunk.data_start : chunk.data_end]
        cut = body.find(b"\x00", 0, _KEYWORD_SPAN)
        key, value = (body[:cut], body[cut + 1 :]) if cut >= 0 else (b"", b"")
        found[key.decode("utf-8", "replace")] = value.decode("utf-8", "replace")
    return found


def x_meta(data: bytes) -> bytes:
    kind = image_type(data)
    texts = _text_chunks(data) if kind == "PNG" else {}
    return (stringify(texts, 4) if texts else stringify({"type": kind})).encode("utf-8")
