"""Media, content-addressed: `<studio>/assets/<sha256>.<ext>`, immutable once written.

`put_asset` returns the `AssetRef` shape ({sha256, ext, mime}) pieces use to refer to a
file. Storing bytes that are already there reuses the file (checked against its hash); a file found damaged (its bytes
no longer hash to its name) is rewritten from the good bytes. `read_asset` verifies the hash
on every read.
"""

from __future__ import annotations

import hashlib
import os

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.store.atomic import Batch, replace_file, write_new
from bunzai.store.studio import Studio, check_ext


def normalize_ext(ext: str) -> str:
    """'.PNG' -> 'png'; checked against the AssetRef pattern (invalid_input otherwise)."""
    if isinstance(ext, str):
        ext = ext.removeprefix(".").lower()
    return check_ext(ext)


def _check_size(size: int, what: str) -> None:
    if size > limits.ASSET_MAX_BYTES:
        raise BunzaiError(
            "too_large",
            f"{what} is {size} bytes; the studio stores assets of at most {limits.ASSET_MAX_BYTES} bytes",
            hint="shrink or compress the file",
        )


def _read_bounded(path: os.PathLike[str], what: str) -> bytes | None:
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return None
    with handle:
        _check_size(os.fstat(handle.fileno()).st_size, what)
        data = handle.read(limits.ASSET_MAX_BYTES + 1)
    _check_size(len(data), what)
    return data


def put_asset(studio: Studio, data: bytes, ext: str, mime: str = "", *, sha256: str | None = None,
              batch: Batch | None = None) -> dict:
    """Store `data` as an asset; returns {sha256, ext, mime}.

    `sha256` is the hash of `data` when the caller has just computed it (apply checks every
    medium against its draft's hash), so the bytes are not hashed twice. No lock is needed:
    the name is the content, a create is create-only, and a repair writes the same bytes.
    """
    ext = normalize_ext(ext)
    data = bytes(data)
    _check_size(len(data), "the asset")
    sha256 = sha256 or hashlib.sha256(data).hexdigest()
    path = studio.asset_path(sha256, ext)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_new(path, data, batch)
    except BunzaiError as error:
        if error.code != "occupied":
            raise
        existing = _read_bounded(path, path.name)
        if existing is None or hashlib.sha256(existing).hexdigest() != sha256:
            replace_file(path, data, batch)  # damaged or vanished: put the good bytes back
    if _read_bounded(path, path.name) != data:
        raise BunzaiError(
            "internal",
            f"asset {path.name} did not read back as written",
            hint="the disk may be failing; check it and try again",
        )
    return {"sha256": sha256, "ext": ext, "mime": mime}


def read_asset(studio: Studio, sha256: str, ext: str) -> bytes:
    """The bytes of an asset; not_found when absent, corrupt_asset when damaged."""
    path = studio.asset_path(sha256, normalize_ext(ext))
    data = _read_bounded(path, path.name)
    if data is None:
        raise BunzaiError("not_found", f"no asset {path.name}", hint="import the media again")
    actual = hashlib.sha256(data).hexdigest()
    if actual != sha256:
        raise BunzaiError(
            "corrupt_asset",
            f"asset {path.name} is damaged: its bytes hash to {actual}",
            hint="import the original media again to repair it",
        )
    return data
