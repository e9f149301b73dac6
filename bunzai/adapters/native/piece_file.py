"""`bunzai.native`: a canonical piece with the media it refers to, in one JSON file.

    {"type": "bunzai.piece", "format": 1, "piece": {<canonical piece>},
     "assets": {"<sha256>.<ext>": {"mime": "...", "base64": "..."}}}

Nothing is lost: the piece keeps its escrow, and every stored asset it refers to travels
inside the file. A bare canonical piece (a file copied out of a studio) reads too.

An escrowed file that is another of the file's assets with one run of bytes put in (a card
PNG's original: its portrait with the card's text chunks) travels as that run alone, format 2:

     "<sha256>.png": {"mime": "...", "base": "<sha256>.png", "at": 511550, "base64": "<the run>"}

its bytes are the base's first `at` bytes, the run, then the rest of the base. A base is
always written whole. A file with no such asset is written as format 1, as bunzai wrote every
file before format 2.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from bunzai import limits
from bunzai.adapters.contract import Adapter, Blob, Decoded, Encoded
from bunzai.adapters.registry import register
from bunzai.errors import BunzaiError
from bunzai.model import KIND_NAMES, dump_piece, key_order
from bunzai.splice import largest_insertion
from bunzai.validate import validate_piece

DOC_TYPE = "bunzai.piece"
DOC_FORMAT = 1
DOC_FORMAT_SPLICED = 2  # some asset travels as a run put into another (`bunzai.splice`)


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
        # A bare piece: above Agnai's 0.95 for any `"kind": "character"` (its own import test),
        # which would read a studio's character file as an empty Agnai card. No Agnai export
        # has a `body` object beside a string `id`.
        bare = _is_piece(parsed) and isinstance(parsed.get("body"), dict) and isinstance(parsed.get("id"), str)
        return 0.97 if bare else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        if isinstance(parsed, dict) and parsed.get("type") == DOC_TYPE:
            if parsed.get("format") not in (DOC_FORMAT, DOC_FORMAT_SPLICED):
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
            blobs = _blobs(assets)
        elif _is_piece(parsed):  # its media stay in the studio it was copied from
            return Decoded([validate_piece(parsed)], [], stored_media=True)
        else:
            raise BunzaiError(
                "unrecognized_file", f"{name}: not a bunzai piece", 'a bunzai.native file has "type": "bunzai.piece"'
            )
        return Decoded([piece], blobs)

    def write(self, piece, media) -> Encoded:
        refs = {f"{ref.sha256}.{ref.ext}": ref for ref in piece.asset_refs()}  # the escrow's files among them
        escrowed = {f"{ref.sha256}.{ref.ext}" for ref in (piece.original.files.values() if piece.original else ())}
        data = {key: media(ref) for key, ref in refs.items()}
        assets: dict[str, dict] = {key: {"mime": ref.mime} for key, ref in refs.items()}
        bases = {key: value for key, value in data.items() if key not in escrowed}  # never an escrowed file
        for key in escrowed & refs.keys():
            found = largest_insertion(data[key], bases, limits.ASSET_SPLICE_MIN_BYTES)
            if found is not None:
                base, at = found
                run = data[key][at : at + len(data[key]) - len(data[base])]
                assets[key] |= {"base": base, "at": at, "base64": base64.b64encode(run).decode("ascii")}
        for key, value in assets.items():
            value.setdefault("base64", base64.b64encode(data[key]).decode("ascii"))
        spliced = any("base" in value for value in assets.values())
        # Sorted keys, as in the studio, with the escrow's own key order recorded beside it.
        piece_doc = key_order.recorded_in(dump_piece(piece))
        fmt = DOC_FORMAT_SPLICED if spliced else DOC_FORMAT
        doc = {"type": DOC_TYPE, "format": fmt, "piece": piece_doc, "assets": assets}
        return Encoded((json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8"))


def _blobs(assets: dict) -> list[Blob]:
    """Every asset of the file, whole ones first: a spliced one is built from its base's bytes."""
    whole = {
        key: _blob(key, value) for key, value in assets.items() if not (isinstance(value, dict) and "base" in value)
    }
    spliced = [_blob(key, value, whole) for key, value in assets.items() if key not in whole]
    return [*whole.values(), *spliced]


def _blob(key: str, value: Any, bases: dict[str, Blob] | None = None) -> Blob:
    sha, _, ext = str(key).partition(".")
    if not isinstance(value, dict) or not isinstance(value.get("base64"), str):
        raise BunzaiError("corrupt_file", f"asset {key}: expected {{mime, base64}}", "export the piece again")
    try:
        data = base64.b64decode(value["base64"], validate=True)
    except (binascii.Error, ValueError):
        raise BunzaiError("corrupt_file", f"asset {key}: invalid base64", "export the piece again") from None
    if bases is not None:
        data = _put_in(key, value, data, bases)
    blob = Blob(data, ext, str(value.get("mime", "")))
    if blob.sha256 != sha:
        raise BunzaiError("corrupt_file", f"asset {key}: its bytes do not hash to its name", "export the piece again")
    return blob


def _put_in(key: str, value: dict, run: bytes, bases: dict[str, Blob]) -> bytes:
    """A spliced asset's bytes: its base's first `at` bytes, `run`, the rest of the base."""
    base, at = bases.get(value["base"]) if isinstance(value["base"], str) else None, value.get("at")
    if base is None:
        raise BunzaiError(
            "corrupt_file",
            f"asset {key}: its base {value['base']!r} is not a whole asset of this file",
            "export the piece again",
        )
    if type(at) is not int or not 0 <= at <= len(base.data):
        raise BunzaiError(
            "corrupt_file", f"asset {key}: at {at!r} is not a place in its base", "export the piece again"
        )
    size = len(base.data) + len(run)
    if size > limits.ASSET_MAX_BYTES:
        raise BunzaiError(
            "too_large",
            f"asset {key} would be {size} bytes; the studio stores assets of at most {limits.ASSET_MAX_BYTES} bytes",
            "shrink or compress the file",
        )
    return base.data[:at] + run + base.data[at:]


register(NativePiece())
