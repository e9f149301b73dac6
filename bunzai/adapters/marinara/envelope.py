"""The `.marinara.json` export envelope and the wire habits of Marinara Engine's rows.

Every export is `{type: marinara_<kind>, version: 1, exportedAt, data}`. The rows inside
are database rows: booleans arrive as the strings "true"/"false" and nested structures as
JSON strings inside the JSON (a preset's `parameters`, `sectionOrder`, a section's
`markerConfig` ...). bunzai decodes those strings only to read what the canonical model
names, and re-encodes a string only when its decoded value was edited, compactly, as
JavaScript's JSON.stringify writes it, so an unedited string goes back byte for byte.
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

from bunzai import limits
from bunzai.adapters.common import png
from bunzai.adapters.common.jsjson import stringify
from bunzai.adapters.contract import Blob

from bunzai.adapters.inspect import parse_text
from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import load_json_bytes

ENVELOPE_VERSION = 1
# A new document needs an exportedAt; a fixed time keeps the bytes a function of the piece,
# so a transfer preview and the export that follows it give the same hash.
FIXED_EXPORTED_AT = "2000-01-01T00:00:00.000Z"


def envelope_type(parsed: Any) -> str | None:
    """The envelope's `type` (marinara_preset ...) when `parsed` is a Marinara export."""
    if (
        isinstance(parsed, dict)
        and isinstance(parsed.get("type"), str)
        and parsed["type"].startswith("marinara_")
        and isinstance(parsed.get("data"), dict)
    ):
        return parsed["type"]
    return None


def envelope_of(data: bytes, name: str, parsed: Any, wanted: str) -> dict:
    """The parsed envelope of type `wanted` (the read's own: see Adapter.read), or a coded refusal."""
    if parsed is None:
        parsed = parse_text(data, name or "x.marinara.json")
    found = envelope_type(parsed)
    if found != wanted:
        raise BunzaiError(
            "corrupt_file",
            f"{name or 'the file'} is not a Marinara {wanted} export (its type is {found or 'missing'})",
            "export it again from Marinara Engine",
        )
    return parsed


def new_envelope(kind: str, data: dict) -> dict:
    return {"type": kind, "version": ENVELOPE_VERSION, "exportedAt": FIXED_EXPORTED_AT, "data": data}


def file_bytes(document: Any) -> bytes:
    """2-space indent, non-ASCII as is, integral numbers without `.0`, newline at the end."""
    return (stringify(document, 2) + "\n").encode("utf-8")


def decode_nested(raw: Any, default: Any) -> Any:
    """A JSON string inside the JSON, decoded; `default` when it is absent or unreadable.

    An already-decoded value (an object where a string is usual) is taken as it is. With a
    default other than None, a value of another type (`"true"`, `true` for an object) reads
    as the default; with None, the caller checks the type. Non-finite numbers (`1e400`, NaN)
    make the string unreadable, as they would in the file itself.
    """
    if isinstance(raw, str):
        try:
            raw = load_json_bytes(raw, what="a JSON string inside the file")
        except BunzaiError:
            return default
    if raw is None or default is None:
        return raw if raw is not None else default
    return raw if isinstance(raw, type(default)) else default


def encode_nested(value: Any) -> str:
    """A value as a JSON string inside the JSON: compact, as JSON.stringify writes it."""
    return stringify(value)


def wire_bool(raw: Any, default: bool) -> bool:
    """ "true"/"false" strings (database rows), real booleans, 0/1."""
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
        return raw.strip().lower() == "true"
    if isinstance(raw, int) and raw in (0, 1):
        return bool(raw)
    return default


def put_bool(row: dict, key: str, value: bool, default: bool) -> None:
    """Write a boolean in the style the row already uses (string unless it held a real boolean)."""
    if key in row and wire_bool(row[key], default) == value:
        return
    row[key] = value if isinstance(row.get(key), bool) else ("true" if value else "false")


def row_id(*parts: str) -> str:
    """A 21-character id like Marinara's nanoids, derived from `parts` (same parts, same id)."""
    digest = hashlib.sha256("\0".join(parts).encode("utf-8")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:21]


def compact_bytes(document: Any) -> bytes:
    """As Marinara's export routes send an envelope: compact JSON.stringify, no newline."""
    return stringify(document).encode("utf-8")


def escrowed_envelope(piece: Any, format_id: str, kind: str) -> dict | None:
    """The piece's escrowed envelope when it was read from `format_id` (type `kind`)."""
    original = piece.original
    if original is None or original.format != format_id or envelope_type(original.document) != kind:
        return None
    return original.document


# The images Marinara's import keeps as an avatar (decodeImageDataUrl -> isAllowedImageBuffer):
# AVIF only where the data: URL says image/avif.
_IMAGES = ((b"\x89PNG\r\n\x1a\n", "png"), (b"\xff\xd8\xff", "jpg"), (b"GIF87a", "gif"), (b"GIF89a", "gif"))
IMAGE_MIMES = {"png": "image/png", "jpg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "avif": "image/avif"}


def image_ext(data: bytes) -> str:
    """ "png", "jpg", "gif", "webp" or "avif" by the bytes' magic; "" for anything else."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[4:8] == b"ftyp" and _avif_brand(data):
        return "avif"
    return next((ext for magic, ext in _IMAGES if data.startswith(magic)), "")


def _avif_brand(data: bytes) -> bool:
    """Whether an ISO media file's `ftyp` box names AVIF, as its major brand or a compatible one."""
    size = int.from_bytes(data[:4], "big")
    brands = [data[8:12], *(data[at : at + 4] for at in range(16, min(size, len(data), 1024) - 3, 4))]
    return any(brand in (b"avif", b"avis") for brand in brands)


def avatar_image(
    raw: Any, place: str, code: str, any_avif: bool = False, noun: str = "avatar"
) -> tuple[Blob | None, str | None]:
    """An export's avatar as an image blob, as Marinara's import reads it (decodeImageDataUrl): a
    `data:` URL (the prefix in lower case) or else the whole text, decoded as Node's Buffer.from
    decodes base64. Else (None, a warning naming `place`, its code `code`.*); none: (None, None).
    `any_avif`: an AVIF without a URL saying so is kept too (a profile's bare `avatarBase64`).
    `noun` names the image in the warning ("{place}'s {noun}"; a sprite, decoded alike: "image")."""
    if raw is None or raw == "":
        return None, None
    if not isinstance(raw, str):
        return None, f"{code}.not_image: {place}'s {noun} is not text; not imported"
    _header, _, payload = raw.partition(",") if raw.startswith("data:") else ("", "", raw)
    cap = limits.ASSET_MAX_BYTES
    if len(payload) > cap * 4 // 3 + 4:
        return None, f"{code}.too_large: {place}'s {noun} is over {cap} bytes; not imported"
    try:
        text = payload.encode("latin-1")
    except UnicodeEncodeError:  # Node reads each character's low byte
        text = bytes(ord(char) & 0xFF for char in payload)
    image = png.node_base64(text)
    ext = image_ext(image)
    if ext == "avif" and not any_avif and _hinted_ext(raw) != ".avif":
        return None, f"{code}.not_image: {place}'s {noun} is an AVIF image its data: URL does not name; not imported"
    if not ext:
        return None, f"{code}.not_image: {place}'s {noun} is not a PNG, JPEG, GIF, WebP or AVIF image; not imported"
    return Blob(image, ext, IMAGE_MIMES[ext]), None


# decodeImageDataUrl's hint: the subtype of a `data:image/...;base64,` prefix, `+xml` cut once;
# isAllowedImageBuffer compares it in lower case
_HINT = re.compile(r"data:image/([A-Za-z0-9_+]+);base64,")


def _hinted_ext(raw: str) -> str:
    found = _HINT.match(raw)
    return ("." + found.group(1).replace("+xml", "", 1)).lower() if found else ".png"


def avatar_url(image: bytes) -> str | None:
    """The `data:` URL Marinara's export writes for an avatar; None for bytes it keeps as none."""
    ext = image_ext(image)
    return f"data:{IMAGE_MIMES[ext]};base64,{base64.b64encode(image).decode('ascii')}" if ext else None


def put_avatar(holder: dict, portrait: Any, media: Any) -> bool:
    """The portrait as the export's `avatar`, a data: URL before its sprites, gallery and
    metadata, as Marinara writes it: kept as the file had it where it reads as the portrait,
    taken out where the portrait is gone (an avatar never read as one stays), written anew
    otherwise. Whether the avatar carries the portrait (False for an image Marinara keeps as
    none, which stays a loss: the file's avatar is then taken out too)."""
    was, _warning = avatar_image(holder.get("avatar"), "", "")
    if portrait is None:
        if was is not None:
            del holder["avatar"]
        return True
    if was is not None and was.sha256 == portrait.sha256:
        return True
    url = avatar_url(media(portrait))
    if url is None:
        if was is not None:  # no longer the portrait, it would be imported as it; one never read stays
            del holder["avatar"]
        return False
    holder.pop("avatar", None)
    put_before(holder, "avatar", url, ("sprites", "gallery", "metadata"))
    return True


def put_before(holder: dict, key: str, value: Any, before: tuple[str, ...]) -> None:
    """`holder[key] = value`, a key `holder` lacks placed before the first of `before` it holds
    (at the end where it holds none), as Marinara's export orders an envelope's keys."""
    keys = list(holder)
    cut = next((i for i, name in enumerate(keys) if name in before), len(keys))
    rest = {name: holder.pop(name) for name in keys[cut:]}
    holder[key] = value
    holder.update(rest)
