"""Media given to a capability: a data: URI, an http(s) URL, or an asset already stored.

A preview never writes and never fetches. A data: URI is decoded here and returned as a
Preview attachment ({sha256: {ext, mime, base64}}) that apply stores; a URL is kept as a
link (nothing is downloaded); an asset reference is used as given (apply refuses it when
the studio does not hold that file).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from bunzai import limits
from bunzai.capabilities.common.patching import refuse
from bunzai.model.base import AssetRef

# MIME types a media ref may declare, and the file extension each is stored under.
MIME_EXT = {
    "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif",
    "image/avif": "avif", "image/bmp": "bmp", "video/webm": "webm", "video/mp4": "mp4",
}
# The first bytes of each format, to warn when a data: URI's bytes are not what it declares.
_MAGIC = {
    "image/png": (b"\x89PNG\r\n\x1a\n",), "image/jpeg": (b"\xff\xd8\xff",), "image/gif": (b"GIF87a", b"GIF89a"),
    "image/bmp": (b"BM",), "video/webm": (b"\x1a\x45\xdf\xa3",),
}
_EXT_MIME = {ext: mime for mime, ext in MIME_EXT.items()} | {"jpeg": "image/jpeg"}

MEDIA_REF_DESCRIPTION = (
    "The image: a data: URI (data:image/png;base64,...), an http(s) URL (kept as a link, never fetched), "
    "or a stored asset {sha256, ext, mime}."
)


@dataclass
class Media:
    """A resolved media ref: the stored file or the URL, its MIME type, and what the preview adds."""

    asset: AssetRef | None = None
    url: str | None = None
    mime: str = ""
    ext: str = ""
    attachments: dict[str, dict] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def resolve_media(ref: str | AssetRef, what: str) -> Media:
    """The Media a ref stands for; invalid_input / too_large when it cannot be one."""
    if isinstance(ref, AssetRef):
        return Media(asset=ref, mime=ref.mime or _EXT_MIME.get(ref.ext, ""), ext=ref.ext)
    text = ref.strip()
    scheme = text.split(":", 1)[0].lower() if ":" in text else ""
    if scheme == "data":
        return _from_data_uri(text, what)
    if scheme in ("http", "https"):
        parts = urlsplit(text)
        if not parts.netloc:
            raise refuse(f"{what}: {text[:80]!r} is not a full http(s) URL", "e.g. https://example.com/joy.png")
        suffix = parts.path.rsplit(".", 1)[-1].lower() if "." in parts.path.rsplit("/", 1)[-1] else ""
        mime = _EXT_MIME.get(suffix, "")
        return Media(url=text, mime=mime, ext=MIME_EXT.get(mime, ""),
                     warnings=[f"{what}: the URL is kept as a link and not downloaded; the image is not stored in the studio"])
    raise refuse(f"{what}: media must be a data: URI, an http(s) URL or an asset {{sha256, ext, mime}}",
                 "e.g. \"data:image/png;base64,iVBORw0...\" or \"https://example.com/joy.png\"")


def _from_data_uri(uri: str, what: str) -> Media:
    header, sep, payload = uri[5:].partition(",")
    params = [part.strip().lower() for part in header.split(";")]
    mime = params[0]
    if not sep or "base64" not in params[1:]:
        raise refuse(f"{what}: a data: URI must be base64, e.g. data:image/png;base64,...")
    if mime not in MIME_EXT:
        raise refuse(f"{what}: MIME type {mime or '(none)'!r} is not a media type bunzai stores",
                     "use one of: " + ", ".join(MIME_EXT))
    if len(payload) > limits.MEDIA_DATA_URI_MAX_BYTES * 4 // 3 + 4:
        from bunzai.errors import BunzaiError

        raise BunzaiError("too_large", f"{what}: the data: URI holds more than {limits.MEDIA_DATA_URI_MAX_BYTES} bytes",
                          "store large media with `bunzai import`, then refer to the asset")
    try:
        data = base64.b64decode("".join(payload.split()), validate=True)
    except (binascii.Error, ValueError):
        raise refuse(f"{what}: the data: URI is not valid base64") from None
    if not data:
        raise refuse(f"{what}: the data: URI holds no bytes")
    sha256 = hashlib.sha256(data).hexdigest()
    ext = MIME_EXT[mime]
    warnings = []
    magic = _MAGIC.get(mime)
    if magic and not data.startswith(magic):
        warnings.append(f"{what}: the bytes do not look like {mime}, which the data: URI declares")
    attachment = {"ext": ext, "mime": mime, "base64": base64.b64encode(data).decode("ascii")}
    return Media(asset=AssetRef(sha256=sha256, ext=ext, mime=mime), mime=mime, ext=ext,
                 attachments={sha256: attachment}, warnings=warnings)
