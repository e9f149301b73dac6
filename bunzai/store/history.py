"""Earlier revisions of pieces, kept for `bunzai revert`: `.bunzai/history/<kind>/<id>/<revision>.json`.

An update keeps the bytes it replaces, and a delete the bytes it removes, under the piece's
lock and before its change-log record is appended, so every logged update or delete whose
write landed has the revision it undid on hand (while history holds it). A file is named by
the revision of its bytes: it is written create-only (a revision already kept is not written
again) and checked against its name when read, so a file torn by a crash reads as absent,
never as another revision.

In a batch (`bunzai apply`'s group commit) the file's bytes are not fsynced one by one: the
batch's commit `syncfs` makes them durable with the rest of the window. Each piece keeps at
most `limits.HISTORY_PER_PIECE` revisions; older ones are pruned when a new one is kept (a
revision kept again, a piece put back to it and edited on, counts as kept then),
except those a revert in progress still needs (`needed_by_revert`): a revert's first write
keeps the piece's current bytes, which must not push out the revision its next undo puts
back. Such a folder stays over the limit until the piece's next kept revision prunes it.
Temp files a killed writer leaves here are swept by `bunzai doctor --repair`, and the media
the kept revisions name (`kept_revisions`) are not orphans to it: revert puts them back.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from contextvars import ContextVar

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.model import KIND_NAMES
from bunzai.store.atomic import is_temp_name, link_temp, settle, unlink_quietly, write_temp
from bunzai.store.canon import revision_of
from bunzai.store.studio import Studio, check_id
from bunzai.validate import check_kind

TYPE_CHECKING = False  # pathlib and typing cost 5 and 3 ms to import; `bunzai read` needs neither
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from bunzai.store.batch import Batch

_REVISION = re.compile(r"[0-9a-f]{64}", re.ASCII)
SUFFIX = ".json"
# (kind, id, revision) the revert running in this context will still read: never pruned
_needed: ContextVar[frozenset[tuple[str, str, str]]] = ContextVar("bunzai_history_needed", default=frozenset())


@contextmanager
def needed_by_revert(needed: set[tuple[str, str, str]]) -> Iterator[None]:
    """Inside the block, pruning spares the kept revisions named in `needed` (kind, id, revision)."""
    token = _needed.set(frozenset(needed))
    try:
        yield
    finally:
        _needed.reset(token)


def piece_history_dir(studio: Studio, kind: str, piece_id: str) -> Path:
    return studio.history_dir / check_kind(kind) / check_id(piece_id)


def keep_revision(studio: Studio, kind: str, piece_id: str, raw: bytes, batch: Batch | None = None) -> Path | None:
    """Keep `raw` (a revision of the piece about to be replaced or removed); call under its lock.
    Returns the file when this call wrote it (a write that then fails removes it), else None."""
    folder = studio.writable_dir(piece_history_dir(studio, kind, piece_id))
    path = folder / f"{revision_of(raw)}{SUFFIX}"
    if os.path.lexists(path):
        _renew(path)  # content-addressed: the same bytes are kept already
        return None
    temp = write_temp(path, raw, batch)
    try:
        link_temp(temp, path)
    except BunzaiError as error:
        if error.code != "occupied":
            raise
        _renew(path)
        return None
    settle(path, batch)
    spared = {f"{rev}{SUFFIX}" for k, i, rev in _needed.get() if (k, i) == (kind, piece_id)}
    _prune(folder, keep={path.name, *spared})
    return path


def _renew(path: Path) -> None:
    """Mark a revision kept again as the newest: pruning goes by age, and a piece put back to an
    earlier revision and edited on needs that revision for the newest undo, not the oldest."""
    try:
        os.utime(path, follow_symlinks=False)
    except OSError:
        pass  # a file that cannot be touched is pruned by its first keeping: never worse than before


def forget(kept: Path | None) -> None:
    """Remove a revision kept for a write that did not happen (call under the piece's lock, which
    every writer of that folder holds), and the piece's folder when that leaves it empty."""
    if kept is None:
        return
    unlink_quietly(kept)
    try:
        os.rmdir(kept.parent)
    except OSError:
        pass  # other revisions are kept there


def _prune(folder: Path, keep: set[str]) -> None:
    """Remove the oldest kept revisions beyond `limits.HISTORY_PER_PIECE`, none named in `keep`."""
    kept: list[tuple[int, str]] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if is_temp_name(entry.name) or not entry.name.endswith(SUFFIX):
                continue
            kept.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.name))
    kept.sort()
    excess = len(kept) - limits.HISTORY_PER_PIECE
    for _, name in kept:
        if excess <= 0:
            break
        if name not in keep:
            unlink_quietly(folder / name)
            excess -= 1


def read_revision(studio: Studio, kind: str, piece_id: str, revision: object) -> bytes | None:
    """The kept bytes of `revision` of a piece, None when history no longer holds them (or the
    file kept is not that revision: torn by a crash, or edited by hand)."""
    from bunzai.store.pieces import read_raw  # lazy: breaks the cycle with bunzai.store.pieces

    if not isinstance(revision, str) or not _REVISION.fullmatch(revision):
        return None
    path = piece_history_dir(studio, kind, piece_id) / f"{revision}{SUFFIX}"
    raw = read_raw(path, what=f"history of {kind}/{piece_id}")
    if raw is None or revision_of(raw) != revision:
        return None
    return raw


def is_kept(studio: Studio, kind: str, piece_id: str, revision: object) -> bool:
    """Whether history holds a file for `revision` (read_revision checks its bytes)."""
    if not isinstance(revision, str) or not _REVISION.fullmatch(revision):
        return False
    return (piece_history_dir(studio, kind, piece_id) / f"{revision}{SUFFIX}").is_file()


def history_folders(studio: Studio) -> list[tuple[str, str, Path]]:
    """(kind, name, folder) of every folder of kept revisions, `.bunzai/history/<kind>/<id>/`
    (symlinks left out)."""
    folders = []
    for kind in KIND_NAMES:
        try:
            listing = os.scandir(studio.history_dir / kind)
        except (FileNotFoundError, NotADirectoryError):
            continue
        with listing:
            for entry in listing:
                if entry.is_dir(follow_symlinks=False):
                    folders.append((kind, entry.name, studio.history_dir / kind / entry.name))
    return folders


def kept_revisions(studio: Studio) -> Iterator[tuple[str, Path, bytes]]:
    """(the piece, `kind/id`; the file; its bytes) of every revision history holds, each read by
    `read_revision` (so checked against its name): what `bunzai revert` could still put back."""
    for kind, piece_id, folder in history_folders(studio):
        try:
            listing = os.scandir(folder)
        except (FileNotFoundError, NotADirectoryError):
            continue
        with listing:
            names = [entry.name for entry in listing if entry.name.endswith(SUFFIX) and not is_temp_name(entry.name)]
        for name in names:
            try:
                raw = read_revision(studio, kind, piece_id, name[: -len(SUFFIX)])
            except BunzaiError:
                continue  # not an id, a symlink or an oversized file: revert cannot read it either
            if raw is not None:
                yield f"{kind}/{piece_id}", folder / name, raw
