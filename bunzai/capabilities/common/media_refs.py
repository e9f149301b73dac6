"""Media given to a capability: one reference form for every input that takes media.

A media reference is one of:

- `@path` or `file:path`: a local file (relative to the working folder); `@cards.zip#img/a.png`
  names a member of a ZIP archive (CHARX, sprite zip ...);
- a data: URI (`data:image/png;base64,...`);
- a stored asset: `{sha256, ext, mime}`, or its file name `<sha256>.<ext>`;
- an http(s) URL, kept as a link and never downloaded.

A preview never writes and never fetches. A file is read once, to hash it and sniff its type
from its bytes; the preview's attachment names it by hash and place (the by-reference form
imports use, `bunzai.changes.media.attachment_of`), and `apply` reads, checks and stores the
bytes. A data: URI travels inline. A declared type (the file's extension, the data: URI's
type, an explicit `mime`) that disagrees with the sniffed one is a warning; an input that takes
only images refuses anything else, naming the sniffed type.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from bunzai import limits
from bunzai.adapters.common.png import read_png
from bunzai.adapters.common.zipsafe import open_archive
from bunzai.adapters.contract import Blob, Origin
from bunzai.capabilities.common.patching import refuse
from bunzai.changes.media import attachment_of
from bunzai.errors import BunzaiError
from bunzai.files import list_folder
from bunzai.model.base import AssetRef

# MIME types a media ref may be, and the file extension each is stored under.
MIME_EXT = {
    "image/png": "png",
    "image/jpeg": "jpg",
    "image/webp": "webp",
    "image/gif": "gif",
    "image/avif": "avif",
    "image/bmp": "bmp",
    "video/webm": "webm",
    "video/mp4": "mp4",
    "application/pdf": "pdf",
    "text/plain": "txt",
}
_EXT_MIME = {ext: mime for mime, ext in MIME_EXT.items()} | {
    "jpeg": "image/jpeg",
    "text": "text/plain",
    "md": "text/plain",
}
IMAGES = ("image/",)
# What a sprite may be. SillyTavern lists image sprites only, so a video one is a declared
# loss when a pack crosses there (pack.item.not_image).
VISUALS = ("image/", "video/")
_HASH_NAME = re.compile(r"([0-9a-f]{64})\.([a-z0-9]{1,10})")

# Words every description of an input that reads local files holds (a media reference, a folder of
# media): over MCP such a capability's tool is marked as reaching the granted folders.
LOCAL_FILE_WORDS = "relative to the working folder"
MEDIA_REF_DESCRIPTION = (
    "The media: a local file as @path or file:path (relative to the working folder; @archive.zip#member for a "
    "file inside a ZIP), a data: URI (data:image/png;base64,...), an http(s) URL (kept as a link, never fetched), "
    "or a stored asset {sha256, ext, mime} or its file name <sha256>.<ext>."
)


def sniff_mime(data: bytes) -> str:
    """The media type the bytes are (PNG, JPEG, WebP, GIF, AVIF, BMP, WebM, MP4, PDF, UTF-8 text); '' when unknown."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data[4:8] == b"ftyp":
        return "image/avif" if data[8:12] in (b"avif", b"avis") else "video/mp4"
    if data.startswith(b"%PDF-"):
        return "application/pdf"
    if data.startswith(b"\x1a\x45\xdf\xa3"):
        return "video/webm"
    if data.startswith(b"BM") and len(data) >= 26:
        return "image/bmp"
    head = data[: limits.MEDIA_TEXT_SNIFF_BYTES]
    if data and b"\x00" not in head:
        try:
            codecs.getincrementaldecoder("utf-8")().decode(head, final=len(head) == len(data))
        except UnicodeDecodeError:
            return ""
        return "text/plain"
    return ""


@dataclass
class Media:
    """A resolved media ref: the stored file or the URL, its MIME type, and what the preview adds."""

    asset: AssetRef | None = None
    url: str | None = None
    mime: str = ""
    ext: str = ""
    name: str = ""  # the file name a file or archive member had ('' for other forms)
    attachments: dict[str, dict] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def resolve_media(
    ref: str | AssetRef, what: str, *, accept: tuple[str, ...] | None = VISUALS, declared: str | None = None
) -> Media:
    """The Media a ref stands for; invalid_input / not_found / too_large when it cannot be one.

    `accept` lists the MIME prefixes the input takes (None: any type bunzai stores);
    `declared` is a MIME type the caller gave, checked against the bytes.
    """
    if isinstance(ref, AssetRef):
        return Media(asset=ref, mime=ref.mime or _EXT_MIME.get(ref.ext, ""), ext=ref.ext)
    text = ref.strip()
    if text.startswith("@"):
        return _from_file(text[1:], what, accept, declared)
    scheme = text.split(":", 1)[0].lower() if ":" in text else ""
    if scheme == "file":
        rest = text[5:]
        return _from_file(rest[2:] if rest.startswith("//") else rest, what, accept, declared)
    if scheme == "data":
        return _from_data_uri(text, what, accept, declared)
    if scheme in ("http", "https"):
        parts = urlsplit(text)
        if not parts.netloc:
            raise refuse(f"{what}: {text[:80]!r} is not a full http(s) URL", "e.g. https://example.com/joy.png")
        suffix = parts.path.rsplit(".", 1)[-1].lower() if "." in parts.path.rsplit("/", 1)[-1] else ""
        mime = _EXT_MIME.get(suffix, "")
        return Media(
            url=text,
            mime=mime,
            ext=MIME_EXT.get(mime, ""),
            warnings=[f"{what}: the URL is kept as a link and not downloaded; the image is not stored in the studio"],
        )
    named = _HASH_NAME.fullmatch(text)
    if named:
        mime = declared or _EXT_MIME.get(named.group(2), "")
        return Media(
            asset=AssetRef(sha256=named.group(1), ext=named.group(2), mime=mime), mime=mime, ext=named.group(2)
        )
    raise refuse(
        f"{what}: {text[:80]!r} is not a media reference",
        "give @path (a local file), a data: URI, an http(s) URL, or a stored asset <sha256>.<ext>",
    )


def _from_file(spec: str, what: str, accept: tuple[str, ...] | None, declared: str | None) -> Media:
    if not spec:
        raise refuse(
            f"{what}: a file reference needs a path, e.g. @portrait.png",
            "put the file's path after the @ (relative to the working folder)",
        )
    if "\0" in spec:
        raise refuse(f"{what}: a path cannot hold a NUL character", "give the path as the file system names it")
    from bunzai.folders import gated, refuse_outside  # lazy: it loads the search module; most references are no files

    # Over MCP: the place asked for, before it is looked at (an archive's, for a member: the
    # member's name is no path here; where the whole spec names a file, `gated` checks it below).
    refuse_outside(os.path.expanduser(spec.rpartition("#")[0] if "#" in spec else spec), what)
    try:
        path = Path(os.path.expanduser(spec))
        path.exists()
    except (OSError, UnicodeEncodeError):  # a lone surrogate, a name too long: no such file
        raise BunzaiError(
            "not_found", f"{what}: no file at {spec[:200]!r}", "paths are relative to the working folder"
        ) from None
    member = ""
    if not path.exists() and "#" in spec:
        archive, _, member = spec.rpartition("#")
        if Path(os.path.expanduser(archive)).is_file():
            path = Path(os.path.expanduser(archive))
        else:
            member = ""
    path = gated(path.absolute())  # over MCP: in the studio or a granted folder only
    data = _read_media_file(path, what, archive=bool(member))
    if member:
        archive = open_archive(data)
        if not archive.has(member):
            raise BunzaiError(
                "not_found", f"{what}: {path} holds no member {member!r}", "list the archive's members to find the name"
            )
        data = archive.read(member)
        if len(data) > limits.MEDIA_FILE_MAX_BYTES:
            raise BunzaiError(
                "too_large",
                f"{what}: {path}#{member} has {len(data)} bytes, over the "
                f"{limits.MEDIA_FILE_MAX_BYTES}-byte media limit",
                "a studio asset holds at most that much",
            )
        name, label, origin = PurePosixPath(member).name, f"{path}#{member}", Origin(member=member)
    else:
        name, label, origin = path.name, str(path), Origin(spans=((0, len(data)),))
    mime, ext, warnings = _checked_type(data, name, label, what, accept, declared)
    blob = Blob(data, ext, mime, origin)
    return Media(
        asset=blob.ref(),
        mime=mime,
        ext=ext,
        name=name,
        attachments={blob.sha256: attachment_of(blob, path)},
        warnings=warnings,
    )


def _read_media_file(path: Path, what: str, *, archive: bool = False) -> bytes:
    """The file's bytes: at most one asset's worth, or an import file's for an archive a member is read from."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise BunzaiError(
            "not_found", f"{what}: no file at {path}", "paths are relative to the working folder"
        ) from None
    except OSError as error:
        raise BunzaiError(
            "invalid_input", f"{what}: {path} cannot be read: {error.strerror}", "check the path and who owns the file"
        ) from None
    if not path.is_file():
        raise refuse(f"{what}: {path} is not a regular file", "give the path of a file, not a folder, pipe or device")
    if info.st_size > limits.MEDIA_FILE_MAX_BYTES and not archive:
        raise BunzaiError(
            "too_large",
            f"{what}: {path} has {info.st_size} bytes, over the {limits.MEDIA_FILE_MAX_BYTES}-byte media limit",
            "a studio asset holds at most that much",
        )
    if info.st_size > limits.IMPORT_FILE_MAX_BYTES:
        raise BunzaiError(
            "too_large",
            f"{what}: {path} has {info.st_size} bytes, over the {limits.IMPORT_FILE_MAX_BYTES}-byte file limit",
            "take the member out of the archive and give it as a file (@path)",
        )
    try:
        with path.open("rb") as handle:
            return handle.read(limits.IMPORT_FILE_MAX_BYTES + 1)
    except OSError as error:
        raise BunzaiError(
            "invalid_input", f"{what}: {path} cannot be read: {error.strerror}", "check the path and who owns the file"
        ) from None


def _checked_type(
    data: bytes, name: str, label: str, what: str, accept: tuple[str, ...] | None, declared: str | None
) -> tuple[str, str, list[str]]:
    """(MIME, stored extension, warnings) of a file's bytes; refused when unknown or not accepted."""
    if not data:
        raise refuse(f"{what}: {label} is empty", "save the media again, or give another file")
    sniffed = sniff_mime(data)
    if not sniffed:
        raise refuse(
            f"{what}: {label} is of a type bunzai does not know (not PNG, JPEG, WebP, GIF, AVIF, PDF or text)",
            "give an image, a PDF or a UTF-8 text file",
        )
    suffix = PurePosixPath(name).suffix.lower().lstrip(".")
    if sniffed == "image/png":
        try:
            read_png(data, label)  # a damaged PNG would be stored, then refused by every card export
        except BunzaiError as error:
            raise refuse(
                f"{what}: {label} is a damaged PNG: {error.message}", "save the image again and retry"
            ) from None
    if accept is not None and not sniffed.startswith(accept):
        named = f" although it is named .{suffix}" if suffix else ""
        raise refuse(
            f"{what}: {label} is {sniffed} (sniffed from its bytes){named}; this takes only "
            + " or ".join(prefix.rstrip("/") for prefix in accept)
            + " files",
            "give an image file (PNG, JPEG, WebP, GIF or AVIF)",
        )
    warnings = []
    by_name = _EXT_MIME.get(suffix, "")
    if by_name and by_name != sniffed:
        warnings.append(f"{what}: {label} is named .{suffix} but its bytes are {sniffed}; it is stored as {sniffed}")
    if declared and declared != sniffed:
        warnings.append(
            f"{what}: the declared type {declared} disagrees with the bytes ({sniffed}); it is stored as {sniffed}"
        )
    ext = MIME_EXT[sniffed]
    if sniffed == "text/plain" and re.fullmatch(r"[a-z0-9]{1,10}", suffix):
        ext = suffix  # notes.md stays .md
    return sniffed, ext, warnings


def _from_data_uri(uri: str, what: str, accept: tuple[str, ...] | None, declared: str | None) -> Media:
    header, sep, payload = uri[5:].partition(",")
    params = [part.strip().lower() for part in header.split(";")]
    mime = params[0]
    if not sep or "base64" not in params[1:]:
        raise refuse(
            f"{what}: a data: URI must be base64, e.g. data:image/png;base64,...",
            "encode the bytes as base64 and write ;base64 before the comma, or give the file as @path",
        )
    if mime not in MIME_EXT:
        raise refuse(
            f"{what}: MIME type {mime or '(none)'!r} is not a media type bunzai stores",
            "use one of: " + ", ".join(MIME_EXT),
        )
    if accept is not None and not mime.startswith(accept):
        raise refuse(
            f"{what}: the data: URI holds {mime}; this takes only "
            + " or ".join(prefix.rstrip("/") for prefix in accept)
            + " media",
            "give media of that type, as @path or in a data: URI that declares it",
        )
    if len(payload) > limits.MEDIA_DATA_URI_MAX_BYTES * 4 // 3 + 4:
        raise BunzaiError(
            "too_large",
            f"{what}: the data: URI holds more than {limits.MEDIA_DATA_URI_MAX_BYTES} bytes",
            "give large media as a file (@path) instead",
        )
    try:
        data = base64.b64decode("".join(payload.split()), validate=True)
    except (binascii.Error, ValueError):
        raise refuse(
            f"{what}: the data: URI is not valid base64",
            "encode the bytes as standard base64 (A-Z, a-z, 0-9, + and /), or give the file as @path",
        ) from None
    if not data:
        raise refuse(
            f"{what}: the data: URI holds no bytes",
            "put the base64 bytes after the comma, or give the file as @path",
        )
    sha256 = hashlib.sha256(data).hexdigest()
    warnings = []
    sniffed = sniff_mime(data)
    if sniffed != mime and not (mime == "text/plain" and sniffed == ""):
        warnings.append(
            f"{what}: the bytes do not look like {mime}, which the data: URI declares"
            + (f" (they look like {sniffed})" if sniffed else "")
        )
    if declared and declared != mime:
        warnings.append(f"{what}: the declared type {declared} disagrees with the data: URI's {mime}")
    if sniffed:  # as for a file: the bytes' type is checked and stored, the declared one only warned about
        mime = _checked_type(data, "", "the data: URI", what, accept, None)[0]
    ext = MIME_EXT[mime]
    attachment = {"ext": ext, "mime": mime, "base64": base64.b64encode(data).decode("ascii")}
    return Media(
        asset=AssetRef(sha256=sha256, ext=ext, mime=mime),
        mime=mime,
        ext=ext,
        attachments={sha256: attachment},
        warnings=warnings,
    )


def folder_files(spec: str, what: str) -> list[Path]:
    """The media files directly in a folder (relative to the working folder), sorted by name;
    hidden files and links are skipped. Refused when it is not a folder, holds too many, or holds
    an entry that cannot be looked at (`list_folder`: a pack made without it would be short a file)."""
    from bunzai.folders import gated, refuse_outside  # lazy: as in _from_file

    folder = Path(os.path.expanduser(spec.removeprefix("@"))).absolute()
    refuse_outside(folder, what)  # over MCP: the place asked for, before it is looked at
    if folder.exists():
        folder = gated(folder)  # and where it really is
    if not folder.is_dir():
        raise BunzaiError("not_found", f"{what}: no folder at {folder}", "paths are relative to the working folder")
    files, _ = list_folder(folder)
    files = [path for path in files if not path.name.startswith("_")]  # _emotions.json and such
    if len(files) > limits.MEDIA_REFS_MAX:
        raise BunzaiError(
            "too_large",
            f"{what}: {folder} holds {len(files)} files, more than the "
            f"{limits.MEDIA_REFS_MAX} media one input may name",
            "split the files into smaller folders and give one at a time",
        )
    if not files:
        raise refuse(
            f"{what}: {folder} holds no files",
            "put the files directly in that folder (subfolders, symlinks and names starting with _ are skipped)",
        )
    return files
