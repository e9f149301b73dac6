"""CCv3 `data.assets` <-> the piece's AssetLinks.

`data:` URIs are decoded into blobs (stored as studio assets); every other uri
(`ccdefault:`, http(s), `embeded://`, relative `/storage/...`) is kept as written.
Writing back keeps an escrowed asset entry untouched when it still reads as the same link.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any
from urllib.parse import unquote_to_bytes

from bunzai import limits
from bunzai.adapters.common.drift import as_object, as_str
from bunzai.adapters.contract import Blob, MediaSource
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.model.base import AssetRef

_EXT = re.compile(r"[a-z0-9]{1,10}")  # fullmatch: `$` would take "png\n"
_MIME_EXT = {
    "image/png": "png",
    "image/jpeg": "jpg",
    "image/webp": "webp",
    "image/gif": "gif",
    "image/avif": "avif",
    "audio/mpeg": "mp3",
    "audio/ogg": "ogg",
    "audio/wav": "wav",
    "video/mp4": "mp4",
    "video/webm": "webm",
    "application/json": "json",
}


def decode_data_uri(uri: str, what: str) -> tuple[bytes, str]:
    """The bytes and MIME type of a data: URI; corrupt_file when it does not decode."""
    header, sep, payload = uri[5:].partition(",")
    if not sep:
        raise BunzaiError("corrupt_file", f"{what} is a data: URI without a comma", "fix or remove the asset")
    params = header.split(";")
    mime = params[0].strip().lower()
    if len(payload) > limits.CARD_DATA_URI_MAX_BYTES * 4 // 3 + 4:
        raise BunzaiError(
            "too_large", f"{what} is over {limits.CARD_DATA_URI_MAX_BYTES} bytes", "store large media as separate files"
        )
    if "base64" in (p.strip().lower() for p in params[1:]):
        try:
            data = base64.b64decode("".join(payload.split()), validate=True)
        except (binascii.Error, ValueError):
            raise BunzaiError("corrupt_file", f"{what} is not valid base64", "fix or remove the asset") from None
    else:
        data = unquote_to_bytes(payload)
    return data, mime


def _blob_ext(declared: str, mime: str) -> str:
    ext = declared.lower()
    if _EXT.fullmatch(ext) and ext != "unknown":
        return ext
    return _MIME_EXT.get(mime, "bin")


def read_assets(raw: object) -> tuple[list[dict], list[Blob]]:
    """Native `assets` -> AssetLink fields (JSON form) and the blobs of embedded data."""
    links: list[dict] = []
    blobs: list[Blob] = []
    for index, item in enumerate(raw if isinstance(raw, list) else []):
        link, blob = _read_asset(as_object(item), index)
        links.append(link)
        if blob is not None:
            blobs.append(blob)
    return links, blobs


def _read_asset(item: dict, index: int) -> tuple[dict, Blob | None]:
    uri = item.get("uri")
    link = {
        "role": as_str(item.get("type")),
        "name": as_str(item.get("name")),
        "ext": as_str(item.get("ext")),
        "asset": None,
        "uri": uri if isinstance(uri, str) else None,
    }
    if isinstance(uri, str) and uri[:5].lower() == "data:":
        data, mime = decode_data_uri(uri, f"asset {index} ({link['name'] or link['role']})")
        blob = Blob(data, _blob_ext(link["ext"], mime), mime)
        link["asset"], link["uri"] = blob.ref().model_dump(mode="json"), None
        return link, blob
    return link, None


def write_assets(base: object, links: list[dict], media: MediaSource) -> list:
    """The native `assets` list: escrowed entries kept where they still read the same."""
    old = base if isinstance(base, list) else []
    out = []
    for index, link in enumerate(links):
        previous = old[index] if index < len(old) and isinstance(old[index], dict) else None
        if previous is not None and _same_link(previous, link):
            out.append(copied(previous))
            continue
        item = copied(previous) if previous is not None else {}
        item["type"], item["name"], item["ext"] = link["role"], link["name"], link["ext"]
        if link["asset"] is not None:
            ref = AssetRef.model_validate(link["asset"])
            item["uri"] = f"data:{ref.mime};base64," + base64.b64encode(media(ref)).decode("ascii")
        else:
            item["uri"] = link["uri"] if link["uri"] is not None else ""
        out.append(item)
    return out


def _same_link(item: dict, link: dict) -> bool:
    uri = item.get("uri")
    if isinstance(uri, str) and uri[:5].lower() == "data:":
        if link["asset"] is None:
            return False
        try:
            read, _blob = _read_asset(item, 0)
        except BunzaiError:
            return False
        return read == link
    return _read_asset(item, 0)[0] == link


def portrait_of(links: list[dict]) -> dict | None:
    """The main icon's stored asset (CCv3: icon named main, else the first icon), if embedded."""
    icons = [link for link in links if link["role"] == "icon"]
    main = next((link for link in icons if link["name"] == "main"), icons[0] if icons else None)
    return main["asset"] if main else None


def with_assets(character: Any, links: list[dict], what: str) -> Any:
    """The character with its asset links (JSON form) validated; corrupt_file naming `what` if one is bad."""
    from pydantic import ValidationError  # lazy: the links of most cards need no model

    from bunzai.model.base import AssetLink

    try:
        assets = [AssetLink.model_validate(link) for link in links]
    except ValidationError as error:
        raise BunzaiError(
            "corrupt_file",
            f"an asset of {what} cannot be read: {error.errors()[0]['msg']}",
            "fix the asset in the app that made the card",
        ) from None
    return character.model_copy(update={"assets": assets})
