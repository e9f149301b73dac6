"""Canonical pieces on disk: `<studio>/<kind>/<id>.json`.

Reads return a `Stored` (data, raw bytes, revision). Writes go through one path each:

- `create_piece`  create-only: an occupied id is refused, never overwritten, never renamed
- `update_piece`  compare-and-swap on the revision: re-read under the lock, compare,
                  replace, re-read and verify
- `delete_piece`  compare-and-swap removal

Every write holds the per-path lock, keeps the revision an update or delete replaces
(`history`), and appends one change-log record *before* its file lands (its `seq` is in the `WriteResult`; see
`changelog` for why), and leaves the studio as
it was when it fails: a refused write writes nothing, and a write whose change-log record
cannot be appended is not made. The store checks
only what it needs (a JSON object whose `kind` and `id` match its path); validating the
body against the model is the caller's job.
"""

from __future__ import annotations

import errno
import os
import stat

from bunzai import limits
from bunzai.errors import BunzaiError, suggestions, unknown_name
from bunzai.files import read_up_to
from bunzai.jsondoc.reading import check_parsed_bounds, load_json_bytes
from bunzai.model import KIND_NAMES, key_order
from bunzai.model.ids import is_safe_id
from bunzai.store.atomic import is_temp_name, link_temp, remove_file, rename_temp, settle, unlink_quietly, write_temp
from bunzai.store.canon import canonical_bytes, revision_of
from bunzai.store.changelog import append_change
from bunzai.store.history import forget, keep_revision
from bunzai.store.locks import path_lock
from bunzai.store.studio import Studio, check_id
from bunzai.validate import check_kind

# pathlib, typing and dataclasses cost 5, 3 and 10 ms to import; `bunzai read` needs none of them
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from bunzai.store.batch import Batch

PIECE_SUFFIX = ".json"
# The hint of a piece not found names where the pieces are listed: `bunzai list`; the MCP server,
# whose client has no shell, says LIST_HINT_MCP instead (bunzai.mcp.hints rewrites every hint).
LIST_HINT_CLI = "see `bunzai list`"
LIST_HINT_MCP = "studio_list shows the pieces the studio holds"


class _Record:
    """Fields set once by position, compared and shown by value: what a dataclass would
    make, written out (see TYPE_CHECKING above)."""

    __slots__ = ()

    def __init__(self, *values: object) -> None:
        if len(values) != len(self.__slots__):
            raise TypeError(f"{type(self).__name__} takes {len(self.__slots__)} values, not {len(values)}")
        for name, value in zip(self.__slots__, values):
            object.__setattr__(self, name, value)

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return self._values() == other._values() if type(other) is type(self) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (as a dataclass with eq and no frozen hash)

    def __reduce__(self) -> tuple:  # copy and pickle build a new one
        return (type(self), self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({shown})"


class Stored(_Record):
    """A piece as stored: its parsed data, the exact bytes, and their revision. Immutable.

    `file` is the path it was read from as a string; `path` makes it a Path on request."""

    __slots__ = ("kind", "id", "file", "data", "raw", "revision")
    kind: str
    id: str
    file: str
    data: dict
    raw: bytes
    revision: str

    @property
    def path(self) -> Path:
        from pathlib import Path

        return Path(self.file)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a Stored is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a Stored is immutable")


class WriteResult(_Record):
    """What a write did. For a delete or a burial, `revision` is the one removed."""

    __slots__ = ("kind", "id", "path", "revision", "seq")
    kind: str
    id: str
    path: Path
    revision: str
    seq: int


def piece_lock_key(kind: str, piece_id: str) -> str:
    return f"{kind}/{piece_id}"


def ref_of(kind: str, piece_id: str) -> str:
    return f"{kind}/{piece_id}"


# --- reading -----------------------------------------------------------------------------


def read_raw(path: Path, *, what: str) -> bytes | None:
    """The bytes of a stored file, None when it does not exist; bounded by JSON_MAX_BYTES.

    A piece file that is a symlink is refused: it could make the studio read (and then
    rewrite through `update`) a file outside it.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise BunzaiError(
                "invalid_piece",
                f"{what} is a symbolic link; bunzai reads only regular files in a studio",
                hint="replace the link with the file itself",
            ) from None
        raise
    try:
        size = os.fstat(fd).st_size
        if size > limits.JSON_MAX_BYTES:
            raise BunzaiError(
                "too_large",
                f"{what} is {size} bytes; bunzai reads at most {limits.JSON_MAX_BYTES}",
                hint="the file was not written by bunzai; shrink it or move it out of the studio",
            )
        raw = read_up_to(fd, limits.JSON_MAX_BYTES + 1)
    finally:
        os.close(fd)
    if len(raw) > limits.JSON_MAX_BYTES:  # grew while being read
        raise BunzaiError("too_large", f"{what} is over {limits.JSON_MAX_BYTES} bytes", hint="shrink the file")
    return raw


def parse_stored(kind: str, piece_id: str, path: Path, raw: bytes) -> Stored:
    """A `Stored` from a file's bytes; BunzaiError invalid_piece when they are not one."""
    ref = ref_of(kind, piece_id)
    try:
        data = load_json_bytes(raw, what=f"the file of {ref}", max_depth=limits.WRAPPED_JSON_MAX_DEPTH)
    except BunzaiError as error:
        raise BunzaiError(
            "invalid_piece",
            error.message,
            hint=f"fix or remove {path}",
            reason=error.code,
        ) from None
    if not isinstance(data, dict):
        raise BunzaiError("invalid_piece", f"the file of {ref} is not a JSON object", hint=f"fix or remove {path}")
    if data.get("kind") != kind or data.get("id") != piece_id:
        raise BunzaiError(
            "invalid_piece",
            f"the file of {ref} says it is {data.get('kind')!r}/{data.get('id')!r}",
            hint=f"make its kind and id match its path, or rename {path}",
        )
    return Stored(kind, piece_id, os.fspath(path), data, raw, revision_of(raw))


def try_read(studio: Studio, kind: str, piece_id: str) -> Stored | None:
    """The stored piece, or None when there is none (other problems raise)."""
    path = studio.piece_file(kind, piece_id)
    raw = read_raw(path, what=ref_of(kind, piece_id))
    if raw is None:
        return None
    return parse_stored(kind, piece_id, path, raw)


def is_stored(studio: Studio, kind: str, piece_id: str) -> bool:
    """Whether the studio stores kind/piece_id, in one stat (a linked file is no piece, as
    `list_stored` says)."""
    try:
        return stat.S_ISREG(os.lstat(studio.piece_file(kind, piece_id)).st_mode)
    except OSError:
        return False


def read_stored(studio: Studio, kind: str, piece_id: str) -> Stored:
    """The stored piece; BunzaiError not_found when there is none."""
    stored = try_read(studio, kind, piece_id)
    if stored is None:
        raise not_found_error(kind, piece_id, studio)
    return stored


def not_found_error(kind: str, piece_id: str, studio: Studio | None = None) -> BunzaiError:
    """not_found for kind/id; given the studio, the hint names the ids of that kind spelled alike."""
    close = _close_ids(studio, piece_id, (kind,)) if studio is not None else []
    return unknown_name("not_found", f"no {kind} with id {piece_id!r}", piece_id, (), LIST_HINT_CLI, close=close)


def _close_ids(studio: Studio, word: str, kinds: tuple[str, ...]) -> list[str]:
    """Refs of stored pieces whose id is spelled like `word` (kind/id when a kind is given)."""
    try:
        stored = list_stored(studio) if len(kinds) != 1 else list_stored(studio, kinds[0])
    except BunzaiError:  # a runaway folder: no suggestion rather than a second error
        return []
    by_id: dict[str, list[str]] = {}
    for kind, piece_id in stored:
        by_id.setdefault(piece_id, []).append(ref_of(kind, piece_id))
    return [ref for piece_id in suggestions(word, by_id) for ref in by_id[piece_id]][: limits.SUGGEST_MAX]


def scan_kind_folders(base: Path, kinds: tuple[str, ...], *, what: str, hint: str) -> Iterator[tuple[str, os.DirEntry]]:
    """(kind, entry) for every entry of `base/<kind>/`, bounded by `limits.WALK_MAX_ENTRIES`
    (too_large beyond, naming `what`); a missing kind folder is skipped."""
    seen = 0
    for kind in kinds:
        try:
            entries = os.scandir(base / kind)
        except (FileNotFoundError, NotADirectoryError):
            continue
        with entries:
            for entry in entries:
                seen += 1
                if seen > limits.WALK_MAX_ENTRIES:
                    raise BunzaiError("too_large", f"{what} holds more than {limits.WALK_MAX_ENTRIES} files", hint=hint)
                yield kind, entry


def list_stored(studio: Studio, kind: str | None = None) -> list[tuple[str, str]]:
    """(kind, id) of every stored piece, sorted; temp files, non-JSON files, hidden files
    and unsafe names are skipped. At most `limits.WALK_MAX_ENTRIES` folder entries are
    looked at (too_large beyond)."""
    kinds = KIND_NAMES if kind is None else (check_kind(kind),)
    found: list[tuple[str, str]] = []
    for name, entry in scan_kind_folders(
        studio.root, kinds, what="the studio's kind folders", hint="move files that are not pieces out of the studio"
    ):
        if is_temp_name(entry.name) or not entry.name.endswith(PIECE_SUFFIX):
            continue
        stem = entry.name[: -len(PIECE_SUFFIX)]
        if is_safe_id(stem) and entry.is_file(follow_symlinks=False):  # a linked file is not a piece
            found.append((name, stem))
    found.sort()
    return found


def resolve_ref(studio: Studio, ref: str) -> tuple[str, str]:
    """(kind, id) of an existing piece named `kind/id` or by a bare id unique across kinds."""
    if not isinstance(ref, str):
        raise BunzaiError("invalid_id", f"{ref!r} is not a piece reference", hint="write kind/id or an id")
    if "/" in ref:
        kind, piece_id = ref.split("/", 1)
        if not os.path.isfile(studio.piece_file(kind, piece_id)):
            raise not_found_error(kind, piece_id, studio)
        return kind, piece_id
    check_id(ref)
    matches = [kind for kind in KIND_NAMES if os.path.isfile(studio.piece_file(kind, ref))]
    if not matches:
        close = _close_ids(studio, ref, KIND_NAMES)
        raise unknown_name("not_found", f"no piece with id {ref!r}", ref, (), LIST_HINT_CLI, close=close)
    if len(matches) > 1:
        refs = [ref_of(kind, ref) for kind in matches]
        raise BunzaiError(
            "ambiguous_ref",
            f"{ref!r} names {len(matches)} pieces: {', '.join(refs)}",
            hint=f"write the kind too, e.g. {refs[0]}",
            matches=refs,
        )
    return matches[0], ref


# --- writing -----------------------------------------------------------------------------


def _target_of(data: Any) -> tuple[str, str]:
    """(kind, id) named inside a piece document, both checked."""
    if not isinstance(data, dict):
        raise BunzaiError("invalid_input", "a piece is a JSON object", hint="send an object with kind and id")
    return check_kind(data.get("kind")), check_id(data.get("id"))


def _piece_bytes(data: dict, kind: str, piece_id: str) -> bytes:
    """The canonical bytes of `data`, refused when bunzai could not read them back."""
    raw = canonical_bytes(key_order.recorded_in(data))
    check_parsed_bounds(data, raw, what=ref_of(kind, piece_id), max_depth=limits.WRAPPED_JSON_MAX_DEPTH)
    return raw


def _verify_written(path: Path, raw: bytes, ref: str) -> None:
    if read_raw(path, what=ref) != raw:
        raise BunzaiError(
            "internal",
            f"{ref} did not read back as written",
            hint="another program wrote to the studio at the same moment, or the disk is failing",
        )


def stale_error(ref: str, expected: str | None, current: str | None) -> BunzaiError:
    if current is None:
        message = f"{ref} no longer exists (expected revision {expected})"
    else:
        message = f"{ref} changed since it was read (expected revision {expected}, found {current})"
    return BunzaiError("stale", message, hint="read it again and redo the change; nothing was written", current=current)


class Staged(_Record):
    """A piece's bytes written to a temp file beside its path, waiting to land (see `land_*`)."""

    __slots__ = ("kind", "id", "path", "raw", "revision", "temp")
    kind: str
    id: str
    path: Path
    raw: bytes
    revision: str
    temp: Path | None

    def drop(self) -> None:
        """Remove the temp file of a write that will not land."""
        if self.temp is not None:
            unlink_quietly(self.temp)
            self.temp = None


def stage_piece(studio: Studio, data: dict, batch: Batch | None = None) -> Staged:
    """Check a piece document and write its bytes to a temp file beside its path (no lock
    yet: the compare-and-swap happens when it lands)."""
    kind, piece_id = _target_of(data)
    path = studio.piece_path(kind, piece_id)
    raw = _piece_bytes(data, kind, piece_id)
    studio.writable_dir(path.parent)
    return Staged(kind, piece_id, path, raw, revision_of(raw), write_temp(path, raw, batch))


def land_create(studio: Studio, staged: Staged, batch: Batch | None = None) -> WriteResult:
    """Give a staged piece its name, create-only: occupied when the id is taken (nothing written).

    The change-log record goes first (see `changelog`), then the file takes its name. In a
    batch, the file's bytes must be durable already (`Batch.sync_data`).
    """
    ref = ref_of(staged.kind, staged.id)
    try:
        with path_lock(studio, piece_lock_key(staged.kind, staged.id)):
            if os.path.lexists(staged.path):
                raise _occupied(ref)
            seq = append_change(
                studio, kind=staged.kind, id=staged.id, revision=staged.revision, op="create", batch=batch
            )
            temp, staged.temp = staged.temp, None
            try:
                link_temp(temp, staged.path)
            except BunzaiError as error:
                if error.code == "occupied":  # a writer that ignores bunzai's locks got there first
                    raise _occupied(ref) from None
                raise
            settle(staged.path, batch)
            _verify_written(staged.path, staged.raw, ref)  # on failure, other bytes are there: leave them
    finally:
        staged.drop()
    return WriteResult(staged.kind, staged.id, staged.path, staged.revision, seq)


def land_update(studio: Studio, staged: Staged, expected_revision: str, batch: Batch | None = None) -> WriteResult:
    """Move a staged piece over the stored one if that is still `expected_revision` (else stale)."""
    ref = ref_of(staged.kind, staged.id)
    try:
        with path_lock(studio, piece_lock_key(staged.kind, staged.id)):
            before = read_raw(staged.path, what=ref)
            current = None if before is None else revision_of(before)
            if current is None or current != expected_revision:
                raise stale_error(ref, expected_revision, current)
            kept = keep_revision(studio, staged.kind, staged.id, before, batch) if current != staged.revision else None
            try:  # the revision replaced is what `bunzai revert` puts back: kept before the record
                seq = append_change(
                    studio,
                    kind=staged.kind,
                    id=staged.id,
                    revision=staged.revision,
                    op="update",
                    base=current,
                    batch=batch,
                )
            except BaseException:
                forget(kept)
                raise
            temp, staged.temp = staged.temp, None
            rename_temp(temp, staged.path)
            settle(staged.path, batch)
            _verify_written(staged.path, staged.raw, ref)  # on failure, other bytes are there: leave them
    finally:
        staged.drop()
    return WriteResult(staged.kind, staged.id, staged.path, staged.revision, seq)


def create_piece(studio: Studio, data: dict) -> WriteResult:
    """Store a new piece now; BunzaiError occupied when its id is taken (nothing written)."""
    return land_create(studio, stage_piece(studio, data))


def update_piece(studio: Studio, data: dict, expected_revision: str) -> WriteResult:
    """Replace a piece now if its stored revision is still `expected_revision` (else stale)."""
    return land_update(studio, stage_piece(studio, data), expected_revision)


def _occupied(ref: str) -> BunzaiError:
    return BunzaiError(
        "occupied",
        f"{ref} already exists; nothing was written",
        hint="choose another id, or update the existing piece with its revision",
    )


def existing_bytes(path: Path, kind: str, piece_id: str, expected_revision: str | None) -> tuple[bytes, str]:
    """(bytes, revision) of a piece about to be removed, called under its lock: stale when it is
    not at `expected_revision` (if given), not_found when it is missing."""
    ref = ref_of(kind, piece_id)
    raw = read_raw(path, what=ref)
    current = None if raw is None else revision_of(raw)
    if expected_revision is not None and current != expected_revision:
        raise stale_error(ref, expected_revision, current)
    if raw is None:
        raise not_found_error(kind, piece_id)
    return raw, current


def delete_piece(studio: Studio, kind: str, piece_id: str, expected_revision: str | None = None) -> WriteResult:
    """Remove a piece; with `expected_revision`, only if it is still that revision.

    Works on the bytes alone, so a damaged file can be deleted too.
    """
    from bunzai.store.faults import Unsettled  # lazy: it imports typing, which read, list and search never need

    path = studio.piece_path(kind, piece_id)
    studio.writable_dir(path.parent)
    with path_lock(studio, piece_lock_key(kind, piece_id)):
        raw, current = existing_bytes(path, kind, piece_id, expected_revision)
        kept = keep_revision(studio, kind, piece_id, raw)  # what `bunzai revert` puts back; kept before the record
        try:
            seq = append_change(studio, kind=kind, id=piece_id, revision=current, op="delete")
        except BaseException:
            forget(kept)
            raise
        done = WriteResult(kind, piece_id, path, current, seq)
        try:
            remove_file(path)
        except Unsettled as error:  # deleted whole: only the removal is not confirmed durable
            error.landed = done
            raise
    return done


def undo_quietly(action: Any) -> None:
    """Best effort to put the studio back after a failed write; the first error wins."""
    try:
        action()
    except Exception:  # noqa: BLE001 - the original failure is the one to report
        pass
