"""Buried pieces: `<studio>/Graveyard/<kind>/<id>@<utc>.json`, restorable.

A burial moves a piece's exact bytes (so its revision is kept) to a new, never reused
entry, stamped to the microsecond in UTC (`20261130T051500123456Z`). An entry is named
`<kind>/<id>@<stamp>`; since entry names come from users, `restore_entry` parses them
strictly and refuses anything else before touching a file. Restoring is create-only at the
piece's path: when the id was taken since the burial, nothing moves.
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta, UTC
from pathlib import Path

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.model import KIND_NAMES
from bunzai.model.ids import is_safe_id
from bunzai.store.atomic import is_temp_name, remove_file, write_new
from bunzai.store.canon import revision_of
from bunzai.store.changelog import append_change
from bunzai.store.locks import path_lock
from bunzai.store.pieces import (
    existing_bytes,
    scan_kind_folders,
    PIECE_SUFFIX,
    WriteResult,
    piece_lock_key,
    read_raw,
    ref_of,
    undo_quietly,
)
from bunzai.store.studio import Studio, check_id
from bunzai.validate import check_kind

STAMP_FORMAT = "%Y%m%dT%H%M%S%fZ"
_STAMP = r"[0-9]{8}T[0-9]{12}Z"
_ENTRY = re.compile(rf"([a-z]{{1,32}})/([^/@]{{1,{limits.ID_MAX_LENGTH}}})@({_STAMP})", re.ASCII)
_ENTRY_FILE = re.compile(rf"([^/@]{{1,{limits.ID_MAX_LENGTH}}})@({_STAMP})\.json", re.ASCII)


def _stamp_time(stamp: str) -> datetime | None:
    try:
        return datetime.strptime(stamp, STAMP_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        return None


def _stamp_of(moment: datetime) -> str:
    return moment.strftime(STAMP_FORMAT)


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_entry(entry: object) -> tuple[str, str, str]:
    """(kind, id, stamp) of an entry name `<kind>/<id>@<stamp>`; invalid_id otherwise."""
    match = _ENTRY.fullmatch(entry) if isinstance(entry, str) else None
    if match is None or _stamp_time(match[3]) is None:
        raise BunzaiError(
            "invalid_id",
            f"{entry!r} is not a graveyard entry",
            hint="entries look like character/ada@20261130T051500123456Z; see `bunzai graveyard`",
        )
    kind, piece_id, stamp = match.groups()
    return check_kind(kind), check_id(piece_id), stamp


def entry_path(studio: Studio, kind: str, piece_id: str, stamp: str) -> Path:
    return studio.graveyard_dir / kind / f"{piece_id}@{stamp}{PIECE_SUFFIX}"


def bury_piece(studio: Studio, kind: str, piece_id: str, expected_revision: str | None = None) -> dict:
    """Move a piece to the graveyard; returns {entry, kind, id, revision, seq}."""
    path = studio.piece_path(kind, piece_id)
    studio.writable_dir(path.parent)
    with path_lock(studio, piece_lock_key(kind, piece_id)):
        raw, current = existing_bytes(path, kind, piece_id, expected_revision)
        grave = _write_entry(studio, kind, piece_id, raw)
        try:
            seq = append_change(studio, kind=kind, id=piece_id, revision=current, op="bury")
        except BaseException:
            undo_quietly(lambda: remove_file(grave))
            raise
        remove_file(path)  # the record names the burial first; a piece still here is "not landed"
    stamp = grave.name[len(piece_id) + 1 : -len(PIECE_SUFFIX)]
    return {"entry": f"{kind}/{piece_id}@{stamp}", "kind": kind, "id": piece_id, "revision": current, "seq": seq}


def _write_entry(studio: Studio, kind: str, piece_id: str, raw: bytes) -> Path:
    """A new graveyard file holding `raw`, create-only under a fresh stamp."""
    studio.writable_dir(studio.graveyard_dir / kind)
    moment = datetime.now(UTC)
    for _ in range(limits.GRAVEYARD_NAME_ATTEMPTS):
        grave = entry_path(studio, kind, piece_id, _stamp_of(moment))
        try:
            write_new(grave, raw)
            return grave
        except BunzaiError as error:
            if error.code != "occupied":
                raise
        moment += timedelta(microseconds=1)
    raise BunzaiError(
        "occupied",
        f"no free graveyard name for {ref_of(kind, piece_id)} after {limits.GRAVEYARD_NAME_ATTEMPTS} tries",
        hint="try again",
    )


def list_graveyard(studio: Studio) -> list[dict]:
    """Every buried piece, newest first: {entry, kind, id, buried_at, revision}.

    At most `limits.WALK_MAX_ENTRIES` folder entries are looked at (too_large beyond).
    """
    found: list[tuple[str, dict]] = []
    for kind, item in scan_kind_folders(
        studio.graveyard_dir, KIND_NAMES, what="the graveyard", hint="empty old graveyard entries"
    ):
        match = _ENTRY_FILE.fullmatch(item.name)
        if is_temp_name(item.name) or match is None or not is_safe_id(match[1]):
            continue
        moment = _stamp_time(match[2])
        raw = read_raw(Path(item.path), what=item.name) if moment else None
        if raw is None:
            continue
        piece_id, stamp = match.groups()
        row = {
            "entry": f"{kind}/{piece_id}@{stamp}",
            "kind": kind,
            "id": piece_id,
            "buried_at": _iso(moment),
            "revision": revision_of(raw),
        }
        found.append((stamp, row))
    found.sort(key=lambda pair: (pair[0], pair[1]["entry"]), reverse=True)
    return [row for _, row in found]


def _taken(ref: str, entry: str) -> BunzaiError:
    return BunzaiError(
        "occupied",
        f"{ref} was taken since the burial; nothing was restored",
        hint=f"bury or delete the current {ref} first, then restore {entry}",
    )


def restore_entry(studio: Studio, entry: str) -> WriteResult:
    """Put a buried piece back at its path; occupied when its id was taken since."""
    kind, piece_id, stamp = parse_entry(entry)
    path = studio.piece_path(kind, piece_id)
    grave = entry_path(studio, kind, piece_id, stamp)
    ref = ref_of(kind, piece_id)
    with path_lock(studio, piece_lock_key(kind, piece_id)), path_lock(studio, f"Graveyard/{entry}"):
        raw = read_raw(grave, what=entry)
        if raw is None:
            raise BunzaiError("not_found", f"no graveyard entry {entry}", hint="see `bunzai graveyard`")
        if os.path.lexists(path):
            raise _taken(ref, entry)
        studio.writable_dir(path.parent)
        revision = revision_of(raw)
        seq = append_change(studio, kind=kind, id=piece_id, revision=revision, op="restore")
        try:
            write_new(path, raw)
        except BunzaiError as error:
            if error.code == "occupied":  # a writer that ignores bunzai's locks got there first
                raise _taken(ref, entry) from None
            raise
        remove_file(grave)
    return WriteResult(kind, piece_id, path, revision, seq)
