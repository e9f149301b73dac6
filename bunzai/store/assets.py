"""Media, content-addressed: `<studio>/assets/<sha256>.<ext>`, immutable once written.

`put_asset` (or `stage_asset` then `land_asset`, in a batch) returns the `AssetRef` shape
({sha256, ext, mime}) pieces use to refer to a file. Storing bytes that are already there
reuses the file (checked against its hash); a file found damaged (its bytes no longer hash
to its name) is rewritten from the good bytes. `read_asset` verifies the hash
on every read.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.store.atomic import settle, unlink_quietly, write_temp
from bunzai.store.studio import Studio, check_ext

if TYPE_CHECKING:
    from bunzai.store.batch import Batch


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


@dataclass
class StagedAsset:
    """An asset's bytes in a temp file beside its path (`temp` None: already stored)."""

    ref: dict
    path: Path
    temp: Path | None

    def drop(self) -> None:
        if self.temp is not None:
            unlink_quietly(self.temp)
            self.temp = None


def stage_asset(
    studio: Studio, data: bytes, ext: str, mime: str = "", *, sha256: str | None = None, batch: Batch | None = None
) -> StagedAsset:
    """Check an asset and write it to a temp file, unless the studio holds it already.

    `sha256` is the hash of `data` when the caller has just computed it (apply checks every
    medium against its draft's hash), so the bytes are not hashed twice. A stored file that
    no longer hashes to its name is damaged: the good bytes are staged to replace it.
    """
    ext = normalize_ext(ext)
    _check_size(len(data), "the asset")
    sha256 = sha256 or hashlib.sha256(data).hexdigest()
    path = studio.asset_path(sha256, ext)
    ref = {"sha256": sha256, "ext": ext, "mime": mime}
    if os.path.lexists(path):  # a stat, not an open: most media of an import are new
        existing = _read_bounded(path, path.name)
        if existing is not None and hashlib.sha256(existing).hexdigest() == sha256:
            return StagedAsset(ref, path, None)
    studio.writable_dir(path.parent)
    return StagedAsset(ref, path, write_temp(path, data, batch))


def land_asset(staged: StagedAsset, batch: Batch | None = None) -> dict:
    """Give a staged asset its name (in a batch, its bytes must be durable already). No lock is
    needed: the name is the content, so whoever lands first lands the same bytes."""
    if staged.temp is None:
        return staged.ref
    temp, staged.temp = staged.temp, None
    try:
        try:
            os.link(temp, staged.path)
        except FileExistsError:  # landed since it was staged, or damaged: keep it only when good
            existing = _read_bounded(staged.path, staged.path.name)
            if existing is None or hashlib.sha256(existing).hexdigest() != staged.ref["sha256"]:
                os.replace(temp, staged.path)
    finally:
        unlink_quietly(temp)
    settle(staged.path, batch)
    return staged.ref


def put_asset(studio: Studio, data: bytes, ext: str, mime: str = "", *, sha256: str | None = None) -> dict:
    """Store `data` as an asset now; returns {sha256, ext, mime}."""
    return land_asset(stage_asset(studio, bytes(data), ext, mime, sha256=sha256))


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
