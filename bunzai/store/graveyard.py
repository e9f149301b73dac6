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
from bunzai.jsondoc.reading import load_json_bytes
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
    found = [
        row
        for kind, item in scan_kind_folders(
            studio.graveyard_dir, KIND_NAMES, what="the graveyard", hint="empty old graveyard entries"
        )
        if (row := _entry_row(kind, item)) is not None
    ]
    return _newest_first(found)


def buried_entries(studio: Studio, kind: str, piece_id: str) -> list[dict]:
    """The graveyard entries of one piece, newest first (rows as `list_graveyard`'s): reads only
    that piece's files, so a revert undoing many burials does not read the graveyard each time."""
    prefix = f"{check_id(piece_id)}@"
    try:
        listing = os.scandir(studio.graveyard_dir / check_kind(kind))
    except (FileNotFoundError, NotADirectoryError):
        return []
    with listing:
        found = [row for item in listing if item.name.startswith(prefix) and (row := _entry_row(kind, item))]
    return _newest_first(found)


def _entry_row(kind: str, item: os.DirEntry) -> dict | None:
    """The row of one file of `Graveyard/<kind>/`, None when it is no entry (a temp file, another
    name). A file bunzai will not read (a link, an oversized file) is a row naming why, with no
    revision: listed, so one such file hides no other entry."""
    match = _ENTRY_FILE.fullmatch(item.name)
    if is_temp_name(item.name) or match is None or not is_safe_id(match[1]):
        return None
    moment = _stamp_time(match[2])
    if moment is None:
        return None
    piece_id, stamp = match.groups()
    row = {"entry": f"{kind}/{piece_id}@{stamp}", "kind": kind, "id": piece_id, "buried_at": _iso(moment)}
    try:
        raw = read_raw(Path(item.path), what=item.name)
    except BunzaiError as error:
        return {**row, "revision": None, "damaged": error.message}
    return None if raw is None else {**row, "revision": revision_of(raw)}


def _newest_first(rows: list[dict]) -> list[dict]:
    # the stamp (fixed width, UTC) sorts as the time it names; the entry breaks ties
    rows.sort(key=lambda row: (row["entry"].rpartition("@")[2], row["entry"]), reverse=True)
    return rows


def _taken(ref: str, entry: str) -> BunzaiError:
    return BunzaiError(
        "occupied",
        f"{ref} was taken since the burial; nothing was restored",
        hint=f"bury or delete the current {ref} first, then restore {entry}",
    )


def _check_entry(grave: Path, entry: str, kind: str, piece_id: str, raw: bytes) -> None:
    """Refuse (invalid_piece) an entry whose bytes name another piece than its file name does (a
    graveyard file renamed by hand): restored, it would be a piece that says it is someone else.
    Bytes that do not parse come back as they were buried, for a person to mend."""
    try:
        data = load_json_bytes(raw, what=entry, max_depth=limits.WRAPPED_JSON_MAX_DEPTH)
    except BunzaiError:
        return
    if isinstance(data, dict) and (data.get("kind"), data.get("id")) != (kind, piece_id):
        raise BunzaiError(
            "invalid_piece",
            f"{entry} holds {str(data.get('kind'))[:40]!r}/{str(data.get('id'))[:140]!r}, not "
            f"{ref_of(kind, piece_id)}; nothing was restored",
            hint=f"rename {grave.name} back to the id it holds, or import its content through a draft",
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
        _check_entry(grave, entry, kind, piece_id, raw)
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
