"""Media, content-addressed: `<studio>/assets/<sha256>.<ext>`, immutable once written.

`put_asset` (or `stage_asset` then `land_asset`, in a batch) returns the `AssetRef` shape
({sha256, ext, mime}) pieces use to refer to a file. Storing bytes that are already there
reuses the file (checked against its hash); a file found damaged (its bytes no longer hash
to its name) is rewritten from the good bytes. `read_asset` verifies the hash
on every read.

A whole file stored beside a part of it (a card PNG, kept for a lossless write back, beside
its portrait: the same file without its text chunks) may be stored as a **splice** of that
part instead (`stage_splice`): `<sha256>.<ext>.splice` holds a header naming the part (an
asset of its own, its base) and where its bytes sit in the file, then the file's other bytes.
`read_asset` rebuilds the file from the two and checks it against its hash like any other; a
plain file of the same name, where there is one, is read first. A base is always a plain file,
so a splice is one level deep.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.store.atomic import settle, unlink_quietly, write_temp
from bunzai.store.studio import Studio, check_ext, check_sha256

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
        size = os.fstat(handle.fileno()).st_size
        _check_size(size, what)
        # Its size and a byte more (a read of the limit sets up a 64 MB buffer for every file);
        # a file that grew since is read on to the limit and refused past it.
        data = handle.read(size + 1)
        if len(data) > size:
            data += handle.read(limits.ASSET_MAX_BYTES + 1 - len(data))
    _check_size(len(data), what)
    return data


@dataclass
class StagedAsset:
    """An asset's bytes in a temp file beside its path (`temp` None: already stored)."""

    ref: dict
    path: Path
    temp: Path | None
    base: StagedAsset | None = None  # a splice's base, staged with it: landed before it

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
        _refuse_folder(path)
        existing = _read_bounded(path, path.name)
        if existing is not None and hashlib.sha256(existing).hexdigest() == sha256:
            return StagedAsset(ref, path, None)
    studio.writable_dir(path.parent)
    return StagedAsset(ref, path, write_temp(path, data, batch))


def _refuse_folder(path: Path) -> None:
    """A folder where an asset's file belongs is refused (corrupt_asset): no file can be put there,
    and it is not bunzai's to remove."""
    if os.path.isdir(path):
        raise BunzaiError(
            "corrupt_asset",
            f"assets/{path.name} is a folder, where the asset's file belongs",
            hint=f"move the folder assets/{path.name} out of the studio's assets, then apply again",
        )


def stage_splice(
    studio: Studio,
    data: bytes,
    ext: str,
    mime: str,
    *,
    sha256: str,
    base: tuple[str, str],
    spans: list[tuple[int, int]],
    staged_base: StagedAsset | None = None,
    batch: Batch | None = None,
) -> StagedAsset:
    """Stage `data` (hashing to `sha256`) as a splice of the asset `base` ((sha256, ext)), whose
    bytes are `data`'s at `spans` (sorted, apart, none empty), unless the studio holds it already.

    The base must be a plain file, stored or staged: `staged_base`, which `land_asset` lands
    first. A plain file of that name is kept (and a damaged one rewritten plain); a good splice
    is reused. A splice no smaller than the file, or whose header would pass
    ASSET_SPLICE_HEADER_MAX_BYTES (a hand-made draft's thousands of spans), or over a base that
    is itself a splice (one an earlier draft of the window stored so), is not made: the file is
    stored plain.
    """
    ext = normalize_ext(ext)
    _check_size(len(data), "the asset")
    path = studio.asset_path(sha256, ext)
    base_path = studio.asset_path(*base)
    plain_base = staged_base.path == base_path if staged_base is not None else base_path.is_file()
    record = None if os.path.lexists(path) or not plain_base else encode_splice(base, spans, data)
    if record is None or len(record) >= len(data) or _header(record) is None:
        return stage_asset(studio, data, ext, mime, sha256=sha256, batch=batch)
    spliced = splice_path(path)
    ref = {"sha256": sha256, "ext": ext, "mime": mime}
    if os.path.lexists(spliced):
        _refuse_folder(spliced)
        if not asset_damage(spliced):
            return StagedAsset(ref, spliced, None)
    studio.writable_dir(path.parent)
    return StagedAsset(ref, spliced, write_temp(spliced, record, batch), staged_base)


SPLICE_SUFFIX = ".splice"
_SPLICE_MAGIC = b"bunzai splice 1\n"


def splice_path(path: Path) -> Path:
    """Where the asset whose plain file would be `path` is kept as a splice."""
    return path.with_name(path.name + SPLICE_SUFFIX)


def encode_splice(base: tuple[str, str], spans: list[tuple[int, int]], data: bytes) -> bytes:
    """The splice file of `data` over the base found at `spans` of it: a magic line, a JSON
    header line, then the bytes between and around the spans, in order."""
    rest, at = [], 0
    for start, end in spans:
        rest.append(data[at:start])
        at = end
    rest.append(data[at:])
    header = {"base": {"sha256": base[0], "ext": base[1]}, "spans": [list(span) for span in spans], "size": len(data)}
    return _SPLICE_MAGIC + json.dumps(header, separators=(",", ":")).encode("ascii") + b"\n" + b"".join(rest)


@dataclass(frozen=True)
class _Header:
    base: tuple[str, str]  # (sha256, ext) of the plain file the splice is built on
    spans: list[tuple[int, int]]  # where the base's bytes sit in the file, in order
    size: int  # the file's
    length: int  # of the magic line and the header line: the rest of the bytes follow

    @property
    def base_name(self) -> str:
        """The base's file name (never a splice: one level deep)."""
        return f"{self.base[0]}.{self.base[1]}"

    @property
    def shared(self) -> int:
        """How many of the file's bytes the base gives: the size the base must have."""
        return sum(stop - start for start, stop in self.spans)


def _header(head: bytes) -> _Header | None:
    """The header at the start of a splice file (`head`: at least its first lines), or None
    where it is not one (damaged or foreign): spans in order, apart, within the size."""
    if not head.startswith(_SPLICE_MAGIC):
        return None
    end = head.find(b"\n", len(_SPLICE_MAGIC), len(_SPLICE_MAGIC) + limits.ASSET_SPLICE_HEADER_MAX_BYTES)
    if end < 0:
        return None
    try:
        found = json.loads(head[len(_SPLICE_MAGIC) : end])
        base = (check_sha256(found["base"]["sha256"]), check_ext(found["base"]["ext"]))
        size, spans = found["size"], [(start, stop) for start, stop in found["spans"]]
    except (ValueError, TypeError, KeyError, BunzaiError):
        return None
    if type(size) is not int or not 0 <= size <= limits.ASSET_MAX_BYTES:
        return None
    at = 0
    for start, stop in spans:
        if type(start) is not int or type(stop) is not int or not at <= start < stop <= size:
            return None
        at = stop
    return _Header(base, spans, size, end + 1)


def _read_header(path: os.PathLike[str]) -> _Header | None:
    try:
        with open(path, "rb") as handle:
            return _header(handle.read(len(_SPLICE_MAGIC) + limits.ASSET_SPLICE_HEADER_MAX_BYTES))
    except OSError:
        return None


def splice_base(path: os.PathLike[str]) -> tuple[str, str] | None:
    """(sha256, ext) of the base a splice file names, or None where it is damaged. Reads the
    header only (doctor, following a used splice to its base)."""
    header = _read_header(path)
    return header.base if header is not None else None


def splice_part(path: os.PathLike[str]) -> tuple[tuple[str, str], int, bool] | None:
    """From a splice's header: the base's (sha256, ext), how many bytes of the file the base
    gives (the size it must have), and whether the splice's own length agrees with its header
    (the bytes beside the base as many as it says); None where the header is damaged or the
    file is no splice."""
    header = _read_header(path)
    if header is None:
        return None
    try:
        agrees = os.stat(path).st_size - header.length == header.size - header.shared
    except OSError:
        agrees = False
    return header.base, header.shared, agrees


def starts_as_splice(path: os.PathLike[str]) -> bool:
    """Whether the file begins as a splice does (its magic line), whatever its name."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(_SPLICE_MAGIC)) == _SPLICE_MAGIC
    except OSError:
        return False


class _Unreadable(Exception):
    """Why a stored file does not give the bytes its name promises."""


def _rebuild(path: Path) -> list[memoryview]:
    """The file a splice at `path` stands for, as its pieces in order (joined, they are the
    file: hashed piece by piece, never copied whole); _Unreadable where the splice cannot be
    read or its base is missing, FileNotFoundError where there is no splice. The base is not
    hashed: every reader hashes the file rebuilt, and asks `_blame` why it differs."""
    raw = _bounded(path)
    header = _header(raw)
    if header is None:
        raise _Unreadable("its header is damaged")
    rest = memoryview(raw)[header.length :]
    base_name, shared = header.base_name, header.shared
    try:
        base = memoryview(_bounded(path.parent / base_name))
    except FileNotFoundError:
        raise _Unreadable(f"its base assets/{base_name} is not in the studio") from None
    except _Unreadable:
        raise _Unreadable(f"its base assets/{base_name} cannot be read") from None
    if len(base) != shared:
        raise _Unreadable(
            f"its base assets/{base_name} is not the size its header gives (the one or the other is damaged)"
        )
    if len(rest) != header.size - shared:
        raise _Unreadable(f"it holds {len(rest)} bytes beside its base, where its header says {header.size - shared}")
    pieces, at, taken, given = [], 0, 0, 0
    for start, stop in header.spans:
        pieces += (rest[given : given + start - at], base[taken : taken + stop - start])
        given += start - at
        taken += stop - start
        at = stop
    pieces.append(rest[given:])
    return pieces


def _bounded(path: Path) -> bytes:
    """A stored file's bytes; FileNotFoundError when it is not there, _Unreadable past the
    limit or where it cannot be read (a folder in its place, no permission)."""
    try:
        raw = _read_bounded(path, path.name)
    except BunzaiError as error:
        raise _Unreadable(error.message) from None
    except FileNotFoundError:
        raise
    except OSError as error:
        raise _Unreadable(f"it cannot be read ({error.strerror or error})") from None
    if raw is None:
        raise FileNotFoundError(path)
    return raw


def _blame(path: Path, actual: str) -> str:
    """Why the stored file at `path`, read whole, hashes to `actual` and not to its name: for a
    splice whose base hashes to another name than its header's, the base is damaged."""
    header = _read_header(path) if path.name.endswith(SPLICE_SUFFIX) else None
    if header is not None:
        try:
            if hashlib.sha256(_bounded(path.parent / header.base_name)).hexdigest() != header.base[0]:
                return f"its base assets/{header.base_name} is damaged"
        except (FileNotFoundError, _Unreadable):
            return f"its base assets/{header.base_name} cannot be read"
    return f"its bytes hash to {actual}"


def asset_damage(path: Path) -> str:
    """Why the stored file at `path` (`<sha256>.<ext>`, or its `.splice`) does not give bytes
    hashing to the name's sha256, or '' when it does (doctor --verify-assets; every byte read)."""
    try:
        pieces = _rebuild(path) if path.name.endswith(SPLICE_SUFFIX) else [_bounded(path)]
    except FileNotFoundError:
        return "it is gone"
    except _Unreadable as error:
        return str(error)
    digest = hashlib.sha256()
    for piece in pieces:
        digest.update(piece)
    actual = digest.hexdigest()
    return "" if actual == path.name.partition(".")[0] else _blame(path, actual)


def asset_file(studio: Studio, sha256: str, ext: str) -> Path | None:
    """The file holding the asset: its plain file, else its splice; None when neither is there
    (neither is read)."""
    path = studio.asset_path(sha256, ext)
    if path.is_file():
        return path
    spliced = splice_path(path)
    return spliced if spliced.is_file() else None


def why_unreadable(studio: Studio, sha256: str, ext: str) -> str:
    """Why the asset has no file to be read from, or '' (its bytes are not read: doctor's
    `missing_asset`, and a graveyard restore's warning)."""
    found = asset_file(studio, sha256, ext)
    path = studio.asset_path(sha256, ext)
    for there in (path, splice_path(path)) if found is None else ():
        if os.path.lexists(there):
            return f"assets/{there.name}, which is not a file (a folder or a link stands there)"
    if found is None:
        return f"assets/{sha256}.{ext}, which is not in the studio"
    if not found.name.endswith(SPLICE_SUFFIX):
        return ""
    base = splice_base(found)
    if base is None:
        return f"assets/{found.name}, whose header is damaged"
    base_path = studio.asset_path(*base)
    if not base_path.is_file():
        where = "is not a file" if os.path.lexists(base_path) else "is not in the studio"
        return f"assets/{found.name}, whose base assets/{base_path.name} {where}"
    return ""


def has_asset(studio: Studio, sha256: str, ext: str) -> bool:
    """Whether the studio has a file for the asset, plain or a splice (not read: apply's check
    that a piece's media are there)."""
    return asset_file(studio, sha256, ext) is not None


def stored_file(studio: Studio, sha256: str, ext: str) -> tuple[Path, int] | None:
    """The file holding the asset (plain, else its splice) and the asset's size, or None when
    neither is there. A splice's size is its header's (what reading it gives)."""
    found = asset_file(studio, sha256, ext)
    if found is None or not found.name.endswith(SPLICE_SUFFIX):
        return None if found is None else (found, found.stat().st_size)
    header = _read_header(found)
    return found, header.size if header is not None else found.stat().st_size


def land_asset(staged: StagedAsset, batch: Batch | None = None) -> dict:
    """Give a staged asset its name (in a batch, its bytes must be durable already). No lock is
    needed: the name is the content, so whoever lands first lands the same bytes. A splice's
    base lands first, so no splice is ever named without its base."""
    if staged.base is not None:
        land_asset(staged.base, batch)
    if staged.temp is None:
        return staged.ref
    temp, staged.temp = staged.temp, None
    try:
        try:
            os.link(temp, staged.path)
        except FileExistsError:  # landed since it was staged, or damaged: keep it only when good
            if asset_damage(staged.path):
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
    stored = path
    try:
        try:
            if os.path.isdir(path):  # a folder, not the asset's file: its splice may be read in its place
                raise FileNotFoundError(path)
            data = _bounded(path)
        except FileNotFoundError:
            stored = splice_path(path)
            data = b"".join(_rebuild(stored))
        actual = hashlib.sha256(data).hexdigest()
        why = "" if actual == sha256 else _blame(stored, actual)
    except FileNotFoundError:
        if not os.path.isdir(path):
            raise BunzaiError("not_found", f"no asset {path.name}", hint="import the media again") from None
        stored, why = path, "it is a folder, where the asset's file belongs"
    except _Unreadable as error:
        why = str(error)
    if why:
        raise BunzaiError(
            "corrupt_asset",
            f"asset {stored.name} is damaged: {why}",
            hint="import the original media again to repair it",
        )
    return data
