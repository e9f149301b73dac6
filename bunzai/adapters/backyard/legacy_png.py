"""Legacy Faraday / Backyard character PNGs.

The character lives in the PNG's `eXIf` chunk: a TIFF structure whose Exif IFD holds a
UserComment (tag 0x9286) = the charset prefix `ASCII\\0\\0\\0` + the JSON `{version,
character: {aiName, aiDisplayName, aiPersona, basePrompt, customDialogue, firstMessage,
scenario, loreItems, ...}}`, plain (version 1) or base64 (later versions). The PNG itself
is the portrait. Written by legacy_write, in the V4 shape Backyard's own library writes.
"""

from __future__ import annotations

import binascii
import struct
from typing import Any


from bunzai import limits
from bunzai.adapters.backyard.texts import book_of, single_brace_warning
from bunzai.adapters.common.drift import as_bool, as_str, iso_seconds
from bunzai.adapters.common.png import headers_of, read_png, strict_base64
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.contract import Adapter, Blob, Decoded, Encoded, MediaSource, Origin
from bunzai.adapters.registry import register
from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import load_json_bytes
from bunzai.model.character import Character

FORMAT_ID = "backyard.png"
EXIF_IFD_POINTER = 0x8769
USER_COMMENT = 0x9286
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


AGAIN = "export the character again from Backyard AI"


def _corrupt(message: str) -> BunzaiError:
    return BunzaiError("corrupt_file", message, AGAIN)


def user_comment(exif: bytes) -> bytes | None:
    """The UserComment bytes of a TIFF/EXIF block, or None when it has none."""
    if exif[:4] not in (b"MM\x00*", b"II*\x00"):
        return None
    order = ">" if exif[:2] == b"MM" else "<"

    def entries(offset: int) -> dict[int, tuple[int, int, bytes]]:
        if offset + 2 > len(exif):
            raise _corrupt("the EXIF block is truncated")
        count = struct.unpack_from(order + "H", exif, offset)[0]
        if offset + 2 + 12 * count > len(exif):
            raise _corrupt("the EXIF block is truncated inside a directory")
        found = {}
        for index in range(count):
            tag, kind, number = struct.unpack_from(order + "HHI", exif, offset + 2 + 12 * index)
            found[tag] = (kind, number, exif[offset + 10 + 12 * index : offset + 14 + 12 * index])
        return found

    ifd0 = entries(struct.unpack_from(order + "I", exif, 4)[0])
    if EXIF_IFD_POINTER not in ifd0:
        return None
    exif_ifd = entries(struct.unpack_from(order + "I", ifd0[EXIF_IFD_POINTER][2])[0])
    if USER_COMMENT not in exif_ifd:
        return None
    _, count, value = exif_ifd[USER_COMMENT]
    if count <= 4:
        return value[:count]
    start = struct.unpack_from(order + "I", value)[0]
    if start + count > len(exif):
        raise _corrupt("the EXIF UserComment runs past the end of its block")
    return exif[start : start + count]


def legacy_document(data: bytes, name: str) -> Any | None:
    """The JSON document in a legacy Backyard PNG, or None when the PNG carries none."""
    png = read_png(data, name or "the PNG")
    for chunk in png.chunks:
        if chunk.type != b"eXIf":
            continue
        comment = user_comment(data[chunk.data_start : chunk.data_end])
        if comment is None or not comment.startswith(b"ASCII\x00\x00\x00"):
            continue
        text = comment[8:].rstrip(b"\x00").strip()
        if len(text) > limits.PNG_TEXT_INFLATE_MAX_BYTES:
            raise BunzaiError(
                "too_large",
                f"{name or 'the PNG'} holds a {len(text)}-byte character",
                "shorten the character in Backyard AI and export it again",
            )
        raw = text if text.startswith(b"{") else strict_base64(text, "the EXIF UserComment")
        return load_json_bytes(raw, what=f"{name or 'the PNG'} (EXIF UserComment)")
    return None


def _has_ascii_exif(data: bytes, chunks: tuple) -> bool:
    """Whether an eXIf chunk holds an ASCII user comment: chunk names, then that chunk only (a
    plain loop: every PNG read is sniffed, and a generator costs more than the test)."""
    for chunk in chunks:
        if chunk.type == b"eXIf" and b"ASCII\x00\x00\x00" in data[chunk.data_start : chunk.data_end]:
            return True
    return False


class BackyardLegacyPng(Adapter):
    format_id = FORMAT_ID
    label = "Backyard AI / Faraday legacy character PNG"
    kinds = ("character",)
    extensions = (".png",)
    container = "image"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not data.startswith(PNG_MAGIC) or not _has_ascii_exif(data, headers_of(data, parsed).chunks):
            return 0.0
        document = legacy_document(data, name)
        return 0.9 if isinstance(document, dict) and isinstance(document.get("character"), dict) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        try:
            document = legacy_document(data, name)
        except (struct.error, binascii.Error) as error:
            raise _corrupt(f"{name or 'the PNG'} has a damaged EXIF block: {error}") from None
        if not isinstance(document, dict) or not isinstance(document.get("character"), dict):
            raise BunzaiError(
                "unrecognized_file",
                f"{name or 'the PNG'} carries no Backyard character",
                "give the PNG Faraday or Backyard AI exported",
            )
        character = document["character"]
        short, full = as_str(character.get("aiName")), as_str(character.get("aiDisplayName"))
        title = full or short or "Character"
        portrait = Blob(data, "png", "image/png", Origin(spans=((0, len(data)),)))
        body = {
            "nickname": short if short and short != title else "",
            "description": as_str(character.get("aiPersona")),
            "system_prompt": as_str(character.get("basePrompt")),
            "example_messages": as_str(character.get("customDialogue")),
            "first_message": as_str(character.get("firstMessage")),
            "scenario": as_str(character.get("scenario")),
            "rating": "nsfw" if as_bool(character.get("isNSFW"), False) else "sfw",
            "creation_date": iso_seconds(character.get("createdAt")),
            "modification_date": iso_seconds(character.get("updatedAt")),
            "book": book_of(character.get("loreItems")),
            "portrait": portrait.ref().model_dump(mode="json"),
        }
        original = {"format": FORMAT_ID, "document": document}
        piece = read_piece(Character, title, name, "character", body, original, AGAIN)
        return Decoded([piece], [portrait], single_brace_warning(body))

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        # lazy: breaks the cycle with legacy_write, which reads its output back with this reader
        from bunzai.adapters.backyard.legacy_write import write_legacy_png

        return write_legacy_png(piece, media)


register(BackyardLegacyPng())
