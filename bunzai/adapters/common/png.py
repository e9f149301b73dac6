"""A pure-Python PNG chunk codec: walk chunks, read and replace text chunks, make a plain image.

Character cards live in PNG text chunks (`chara`, `ccv3`). Reading checks every chunk's
length and CRC, so a damaged file is refused with `corrupt_file` instead of half-read.
Writing replaces text chunks by keyword and keeps every other chunk, and any bytes after
IEND, exactly as they were: the image itself is never re-encoded.
"""

from __future__ import annotations

import base64
import binascii
import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from bunzai import limits
from bunzai.errors import BunzaiError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
TEXT_TYPES = (b"tEXt", b"zTXt", b"iTXt")
_HINT = "the PNG is damaged; export the card again from the app that made it"


class Chunk(NamedTuple):
    """One chunk, by its offsets in the file: [start, end) covers length, type, data and CRC.

    A tuple, not a dataclass: a walk makes one per chunk, and a frozen dataclass costs
    several times more to build."""

    type: bytes
    start: int
    end: int
    keyword: str = ""  # a text chunk's keyword, lowercased (as readers look it up); "" for other chunks

    @property
    def data_start(self) -> int:
        return self.start + 8

    @property
    def data_end(self) -> int:
        return self.end - 4


class TextChunk(NamedTuple):
    """A decoded text chunk: its keyword, its text bytes and the chunk it came from."""

    keyword: str
    text: bytes
    chunk: Chunk


@dataclass(frozen=True)
class PngFile:
    """A checked PNG: its bytes, its chunks up to IEND, and where trailing bytes start."""

    data: bytes
    chunks: list[Chunk]
    trailer_start: int
    unchecked: tuple[Chunk, ...] = ()  # image-data chunks whose CRC `read_png(defer=True)` left to `check_crcs`

    def text_chunks(self) -> list[TextChunk]:
        """Every tEXt, zTXt and iTXt chunk, decoded, in file order."""
        return [_decode_text(self.data, chunk) for chunk in self.chunks if chunk.type in TEXT_TYPES]


def _corrupt(message: str) -> BunzaiError:
    return BunzaiError("corrupt_file", message, _HINT)


# Chunks holding only image data (PNG and APNG frames): their CRCs may be checked later,
# when the image's bytes are hashed or stored, since no text is read from them.
IMAGE_DATA_TYPES = (b"IDAT", b"fdAT")


def read_png(data: bytes, what: str = "the PNG", *, defer: bool = False, walked: PngHeaders | None = None) -> PngFile:
    """Walk and check every chunk: signature, lengths, CRCs, IHDR first, IEND present.

    With `defer`, the CRCs of image-data chunks are not checked here but listed in
    `unchecked`, for `check_crcs` to check before the image is hashed or stored: a reader
    that only wants the text does not pay for checksumming the whole image. `walked`, the
    sniffers' walk of these bytes, is checked instead of walking the file again.
    """
    if len(data) > limits.PNG_MAX_BYTES:
        raise BunzaiError(
            "too_large",
            f"{what} is {len(data)} bytes; bunzai reads PNG cards up to {limits.PNG_MAX_BYTES} bytes",
            "shrink the image and export the card again",
        )
    if not data.startswith(PNG_SIGNATURE):
        raise _corrupt(f"{what} does not start with the PNG signature")
    view = memoryview(data)
    size, pos, chunks, unchecked = len(data), len(PNG_SIGNATURE), [], []
    unpack, crc32 = struct.unpack_from, zlib.crc32
    if walked is not None and walked.data is data and walked.complete:  # checked, not walked again
        for chunk in walked.chunks:
            length, kind = chunk.end - chunk.start - 12, chunk.type
            if length > limits.PNG_CHUNK_MAX_BYTES or not kind.isalpha() or not kind.isascii():
                break  # the walk below says what is wrong, where
            if defer and kind in IMAGE_DATA_TYPES:
                unchecked.append(chunk)
            elif crc32(view[chunk.start + 4 : chunk.end - 4]) != unpack(">I", data, chunk.end - 4)[0]:
                raise _corrupt(f"{what} has a bad CRC in the {kind.decode('ascii')} chunk at byte {chunk.start}")
        else:
            if walked.chunks[0].type != b"IHDR":
                raise _corrupt(f"{what} does not start with an IHDR chunk")
            return PngFile(data, list(walked.chunks), walked.chunks[-1].end, tuple(unchecked))
        unchecked = []
    while True:
        if pos + 12 > size:
            raise _corrupt(f"{what} is truncated: it ends inside a chunk header at byte {pos}, before IEND")
        length, kind = unpack(">I4s", data, pos)
        if length > limits.PNG_CHUNK_MAX_BYTES:
            raise BunzaiError(
                "too_large",
                f"{what} declares a {length}-byte chunk at byte {pos}; the limit is {limits.PNG_CHUNK_MAX_BYTES}",
                _HINT,
            )
        if not kind.isalpha() or not kind.isascii():
            raise _corrupt(f"{what} has an invalid chunk type {kind!r} at byte {pos}")
        end = pos + 12 + length
        if end > size:
            raise _corrupt(
                f"{what} is truncated: the {kind.decode('ascii')} chunk at byte {pos} needs {end - size} more bytes"
            )
        chunk = Chunk(kind, pos, end, _keyword_of(data, kind, pos, end))
        if defer and kind in IMAGE_DATA_TYPES:
            unchecked.append(chunk)
        elif crc32(view[pos + 4 : end - 4]) != unpack(">I", data, end - 4)[0]:
            raise _corrupt(f"{what} has a bad CRC in the {kind.decode('ascii')} chunk at byte {pos}")
        chunks.append(chunk)
        if len(chunks) > limits.PNG_MAX_CHUNKS:
            raise BunzaiError("too_large", f"{what} has more than {limits.PNG_MAX_CHUNKS} chunks", _HINT)
        pos = end
        if kind == b"IEND":
            break
    if chunks[0].type != b"IHDR":
        raise _corrupt(f"{what} does not start with an IHDR chunk")
    return PngFile(data, chunks, pos, tuple(unchecked))


def check_crcs(png: PngFile, what: str = "the PNG") -> None:
    """Check the CRCs `read_png(defer=True)` left unchecked; corrupt_file on a bad one."""
    view, unpack = memoryview(png.data), struct.unpack_from
    for chunk in png.unchecked:
        if zlib.crc32(view[chunk.start + 4 : chunk.end - 4]) != unpack(">I", png.data, chunk.end - 4)[0]:
            raise _corrupt(f"{what} has a bad CRC in the {chunk.type.decode('ascii')} chunk at byte {chunk.start}")


def _decode_text(data: bytes, chunk: Chunk) -> TextChunk:
    body = data[chunk.data_start : chunk.data_end]
    keyword, sep, rest = body.partition(b"\0")
    if not sep or not 1 <= len(keyword) <= 79:
        raise _corrupt(f"a {chunk.type.decode('ascii')} chunk at byte {chunk.start} has no valid keyword")
    name = keyword.decode("latin-1")
    if chunk.type == b"tEXt":
        return TextChunk(name, rest, chunk)
    if chunk.type == b"zTXt":
        if not rest or rest[0] != 0:
            raise _corrupt(f"the zTXt chunk {name!r} uses an unknown compression method")
        return TextChunk(name, inflate(rest[1:], name), chunk)
    # iTXt: compression flag, method, language tag\0, translated keyword\0, UTF-8 text.
    if len(rest) < 2:
        raise _corrupt(f"the iTXt chunk {name!r} is truncated")
    flag, method, tail = rest[0], rest[1], rest[2:]
    parts = tail.split(b"\0", 2)
    if len(parts) != 3:
        raise _corrupt(f"the iTXt chunk {name!r} is missing its language or translated keyword")
    text = parts[2]
    if flag == 1:
        if method != 0:
            raise _corrupt(f"the iTXt chunk {name!r} uses an unknown compression method")
        text = inflate(text, name)
    elif flag != 0:
        raise _corrupt(f"the iTXt chunk {name!r} has an invalid compression flag")
    return TextChunk(name, text, chunk)


def inflate(data: bytes, name: str) -> bytes:
    """zlib-decompress a text chunk, refusing output past limits.PNG_TEXT_INFLATE_MAX_BYTES."""
    limit = limits.PNG_TEXT_INFLATE_MAX_BYTES
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error as error:
        raise _corrupt(f"the compressed text chunk {name!r} does not decompress: {error}") from None
    if len(out) > limit:
        raise BunzaiError("too_large", f"the compressed text chunk {name!r} inflates past {limit} bytes", _HINT)
    if not inflater.eof:
        raise _corrupt(f"the compressed text chunk {name!r} is truncated")
    return out


def chunk_headers(data: bytes) -> list[Chunk]:
    """The chunks a PNG's headers name, up to IEND: no CRC or type checks, no chunk data read
    but text keywords. A damaged file gives what its headers say as far as they go (the
    reader that claims it checks everything with `read_png`). At most `limits.PNG_MAX_CHUNKS`."""
    chunks: list[Chunk] = []
    pos, size = len(PNG_SIGNATURE), len(data)
    while pos + 12 <= size and len(chunks) < limits.PNG_MAX_CHUNKS:
        length, kind = struct.unpack_from(">I4s", data, pos)
        end = pos + 12 + length
        if end > size:
            break
        chunks.append(Chunk(kind, pos, end, _keyword_of(data, kind, pos, end)))
        if kind == b"IEND":
            break
        pos = end
    return chunks


def _keyword_of(data: bytes, kind: bytes, start: int, end: int) -> str:
    """A text chunk's keyword, lowercased ("" when it has none within 79 bytes, or is no text chunk)."""
    if kind not in TEXT_TYPES:
        return ""
    cut = data.find(b"\0", start + 8, min(end - 4, start + 88))
    return data[start + 8 : cut].decode("latin-1").lower() if cut >= 0 else ""


class PngHeaders(NamedTuple):
    """One walk of a PNG's chunk headers, made by `inspect` and given to every image sniffer
    and then to the reader that claims the file (as their `parsed`), so a file is walked once.
    Nothing in it is checked: `read_png(walked=...)` checks it."""

    data: bytes
    chunks: tuple[Chunk, ...]
    keywords: frozenset[str]  # the text chunks' keywords, lowercased

    @property
    def complete(self) -> bool:
        return bool(self.chunks) and self.chunks[-1].type == b"IEND"

    def has_text(self, keywords: tuple[str, ...]) -> bool:
        """Whether a text chunk is keyed by one of `keywords` (lowercase), in any case."""
        return any(keyword in self.keywords for keyword in keywords)


def headers(data: bytes) -> PngHeaders:
    chunks = tuple(chunk_headers(data))
    return PngHeaders(data, chunks, frozenset(chunk.keyword for chunk in chunks if chunk.keyword))


def headers_of(data: bytes, parsed: object) -> PngHeaders:
    """The walk `inspect` made of `data` (an image reader's `parsed`), or a new one."""
    if isinstance(parsed, PngHeaders) and parsed.data is data:
        return parsed
    return headers(data)


def text_of(data: bytes, chunk: Chunk) -> TextChunk:
    """One text chunk decoded (tEXt, zTXt or iTXt), without walking the rest of the file."""
    return _decode_text(data, chunk)


def find_text(png: PngFile, keyword: str) -> TextChunk | None:
    """The first text chunk whose keyword matches `keyword` case-insensitively."""
    wanted = keyword.lower()
    for chunk in png.chunks:  # only the chunk asked for is decoded (a card's text is large)
        if chunk.keyword == wanted:
            return _decode_text(png.data, chunk)
    return None


def find_texts(png: PngFile, keywords: tuple[str, ...]) -> dict[str, TextChunk]:
    """keyword -> the first text chunk so keyed (case-insensitively), for each of `keywords`
    the file has: one walk, and only those chunks decoded."""
    wanted = {keyword.lower(): keyword for keyword in keywords}
    found: dict[str, TextChunk] = {}
    for chunk in png.chunks:
        keyword = wanted.get(chunk.keyword) if chunk.keyword else None
        if keyword is not None and keyword not in found:
            found[keyword] = _decode_text(png.data, chunk)
    return found


def text_chunk(keyword: str, text: bytes) -> bytes:
    """A complete tEXt chunk (length, type, data, CRC). Text must be Latin-1 bytes (base64 is)."""
    body = b"tEXt" + keyword.encode("latin-1") + b"\0" + text
    return struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))


def replace_text(png: PngFile, replaced: set[str], added: list[tuple[str, bytes]]) -> bytes:
    """The file without text chunks keyed by `replaced` (any case), with `added` tEXt before IEND.

    Every other chunk, and anything after IEND, is copied byte for byte in its place.
    """
    spans = kept_spans(png, replaced)
    data = png.data
    parts = [data[start:end] for start, end in spans[:-2]]
    parts.extend(text_chunk(keyword, text) for keyword, text in added)
    parts.extend(data[start:end] for start, end in spans[-2:])
    return b"".join(parts)


def kept_spans(png: PngFile, replaced: set[str]) -> list[tuple[int, int]]:
    """Byte spans of the file that `replace_text(png, replaced, [])` copies, in order.

    Always ends with the IEND chunk and the trailer (possibly empty), so added chunks go
    before the last two spans. A draft names an image by these spans instead of its bytes.
    """
    names = {name.lower() for name in replaced}
    data, spans = png.data, [(0, len(PNG_SIGNATURE))]
    for chunk in png.chunks:
        if chunk.keyword and chunk.keyword in names:
            continue
        if chunk.type != b"IEND" and spans[-1][1] == chunk.start:
            spans[-1] = (spans[-1][0], chunk.end)  # adjacent chunks make one span
        else:
            spans.append((chunk.start, chunk.end))
    spans.append((png.trailer_start, len(data)))
    return spans


def strict_base64(text: bytes, what: str) -> bytes:
    """Decode base64, refusing anything but the base64 alphabet (line breaks allowed)."""
    try:
        return base64.b64decode(text, validate=True)  # the common case: one line, decoded without a copy
    except (binascii.Error, ValueError):
        pass
    try:
        return base64.b64decode(b"".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        raise _corrupt(f"{what} is not valid base64") from None


@lru_cache(maxsize=1)
def default_portrait() -> bytes:
    """A small plain portrait (256x384, a soft vertical gradient) for cards without an image."""
    width, height = 256, 384
    rows = []
    for y in range(height):
        shade = 0x5A + (0x2C * y) // height
        rows.append(b"\0" + bytes((shade, shade - 8, shade + 12)) * width)
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")
