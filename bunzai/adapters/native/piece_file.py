"""`bunzai.native`: a canonical piece with the media it refers to, in one JSON file.

    {"type": "bunzai.piece", "format": 1, "piece": {<canonical piece>},
     "assets": {"<sha256>.<ext>": {"mime": "...", "base64": "..."}}}

Nothing is lost: the piece keeps its escrow, and every stored asset it refers to travels
inside the file. A bare canonical piece (a file copied out of a studio) reads too.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from bunzai.adapters.contract import Adapter, Blob, Decoded, Encoded
from bunzai.adapters.registry import register
from bunzai.errors import BunzaiError
from bunzai.model import KIND_NAMES, dump_piece, key_order
from bunzai.validate import validate_piece

DOC_TYPE = "bunzai.piece"
DOC_FORMAT = 1


def _is_piece(doc: Any) -> bool:
    return isinstance(doc, dict) and doc.get("kind") in KIND_NAMES and "id" in doc and "name" in doc


class NativePiece(Adapter):
    format_id = "bunzai.native"
    label = "bunzai canonical piece"
    kinds = KIND_NAMES
    extensions = (".bunzai.json", ".json")
    container = "text"
    carries_escrow = True

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if isinstance(parsed, dict) and parsed.get("type") == DOC_TYPE:
            return 1.0
        return 0.9 if _is_piece(parsed) and "body" in parsed else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        if isinstance(parsed, dict) and parsed.get("type") == DOC_TYPE:
            if parsed.get("format") != DOC_FORMAT:
                raise BunzaiError(
                    "unsupported",
                    f"bunzai.native format {parsed.get('format')!r} is not one this bunzai reads",
                    "upgrade bunzai, or export the piece again with this one",
                )
            piece = validate_piece(parsed.get("piece"))
            assets = parsed.get("assets") or {}
            if not isinstance(assets, dict):
                raise BunzaiError(
                    "corrupt_file",
                    f"{name}: /assets is a {type(assets).__name__}, not an object of files by <sha256>.<ext>",
                    "export the piece again",
                )
            blobs = [_blob(key, value) for key, value in assets.items()]
        elif _is_piece(parsed):
            piece, blobs = validate_piece(parsed), []
        else:
            raise BunzaiError(
                "unrecognized_file", f"{name}: not a bunzai piece", 'a bunzai.native file has "type": "bunzai.piece"'
            )
        return Decoded([piece], blobs)

    def write(self, piece, media) -> Encoded:
        assets = {}
        refs = list(piece.asset_refs())
        if piece.original is not None:
            refs += [ref for ref in piece.original.files.values() if ref.sha256 not in {r.sha256 for r in refs}]
        for ref in refs:
            assets[f"{ref.sha256}.{ref.ext}"] = {
                "mime": ref.mime,
                "base64": base64.b64encode(media(ref)).decode("ascii"),
            }
        # Sorted keys, as in the studio, with the escrow's own key order recorded beside it.
        piece_doc = key_order.recorded_in(dump_piece(piece))
        doc = {"type": DOC_TYPE, "format": DOC_FORMAT, "piece": piece_doc, "assets": assets}
        return Encoded((json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8"))


def _blob(key: str, value: Any) -> Blob:
    sha, _, ext = str(key).partition(".")
    if not isinstance(value, dict) or not isinstance(value.get("base64"), str):
        raise BunzaiError("corrupt_file", f"asset {key}: expected {{mime, base64}}", "export the piece again")
    try:
        data = base64.b64decode(value["base64"], validate=True)
    except (binascii.Error, ValueError):
        raise BunzaiError("corrupt_file", f"asset {key}: invalid base64", "export the piece again") from None
    blob = Blob(data, ext, str(value.get("mime", "")))
    if blob.sha256 != sha:
        raise BunzaiError("corrupt_file", f"asset {key}: its bytes do not hash to its name", "export the piece again")
    return blob


register(NativePiece())
