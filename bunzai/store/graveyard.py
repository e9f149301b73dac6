"""Buried pieces: `<studio>/Graveyard/<kind>/<id>@<utc>.json`, restorable.

A burial moves a piece's exact bytes (so its revision is kept) to a new, never reused
entry, stamped to the microsecond in UTC (`20261130T051500123456Z`). An entry is named
`<kind>/<id>@<stamp>`; since entry names come from users, `restore_entry` parses them
strictly and refuses anything else before touching a file. Restoring is create-only at the
piece's path: when the id was taken since the burial, nothing moves. Listing reads names and
stats, and an entry's bytes only when its revision is not already known (`_Revisions`).
"""

from __future__ import annotations

import json
import os
import re
import stat
import time
from datetime import datetime, timedelta, UTC
from pathlib import Path
from typing import NoReturn

from bunzai import limits
from bunzai.errors import BunzaiError, from_os_error
from bunzai.jsondoc.reading import load_json_bytes
from bunzai.model import KIND_NAMES
from bunzai.model.ids import is_safe_id
from bunzai.store.atomic import is_temp_name, remove_file, replace_file, write_new
from bunzai.store.canon import revision_of
from bunzai.store.changelog import append_change
from bunzai.store.faults import Unsettled
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
REVISIONS_FILE = "graveyard.json"  # in the studio's `.bunzai/`: see `_Revisions`
REVISIONS_FORMAT = 1
_ENTRY_FILE = re.compile(rf"([^/@]{{1,{limits.ID_MAX_LENGTH}}})@({_STAMP})\.json", re.ASCII)


def is_entry_file(name: str) -> bool:
    """Whether a file of `Graveyard/<kind>/` is named as an entry is (`<id>@<stamp>.json`)."""
    match = _ENTRY_FILE.fullmatch(name)
    return match is not None and is_safe_id(match[1]) and _stamp_time(match[2]) is not None


def _stamp_time(stamp: str) -> datetime | None:
    """The moment a stamp that matched `_STAMP` names; None for an impossible date. Cut by position,
    as `strptime` reads that fixed-width shape, for a fraction of its cost (with `strftime`, it
    was 8-9% of a listing)."""
    try:
        return datetime(
            int(stamp[0:4]),
            int(stamp[4:6]),
            int(stamp[6:8]),
            int(stamp[9:11]),
            int(stamp[11:13]),
            int(stamp[13:15]),
            int(stamp[15:21]),
            tzinfo=UTC,
        )
    except ValueError:
        return None


def _stamp_of(moment: datetime) -> str:
    return moment.strftime(STAMP_FORMAT)


def _iso(stamp: str) -> str:
    """`buried_at` of a stamp `_stamp_time` accepted: the same moment, as ISO 8601."""
    return f"{stamp[0:4]}-{stamp[4:6]}-{stamp[6:8]}T{stamp[9:11]}:{stamp[11:13]}:{stamp[13:15]}.{stamp[15:21]}Z"


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
        try:
            grave = _write_entry(studio, kind, piece_id, raw)
        except Unsettled as error:  # the piece must not go while its copy is not confirmed durable
            raise _taken_back(error, Path(error.details["path"]), ref_of(kind, piece_id), "buried") from None
        try:
            seq = append_change(studio, kind=kind, id=piece_id, revision=current, op="bury")
        except BaseException as error:
            _raise_taken_back(error, grave, path, ref_of(kind, piece_id))
        stamp = grave.name[len(piece_id) + 1 : -len(PIECE_SUFFIX)]
        buried = {"entry": f"{kind}/{piece_id}@{stamp}", "kind": kind, "id": piece_id, "revision": current, "seq": seq}
        try:
            remove_file(path)  # the record names the burial first; a piece still here is "not landed"
        except Unsettled as error:  # buried whole: only the removal is not confirmed durable
            error.landed = buried
            raise
        except BaseException as error:  # the piece stays where it is: its copy goes, the record is "not landed"
            _raise_taken_back(error, grave, path, ref_of(kind, piece_id))
    return buried


def _raise_taken_back(error: BaseException, made: Path, original: Path, ref: str) -> NoReturn:
    """Raise `error`, met after the copy `made` of `original` (`ref`) was written, once the copy is
    removed again: only while `original` is still there (one removed by hand meanwhile leaves the
    copy as the only one). A disk fault whose copy could not be removed is said so."""
    if os.path.lexists(original):
        undo_quietly(lambda: remove_file(made))
        coded = from_os_error(error, original, writing=None) if isinstance(error, OSError) else None
        if coded is not None and os.path.lexists(made):
            raise BunzaiError(
                coded.code,
                f"{coded.message}; {made.name}, the copy of {ref} made on the way, could not be removed again: it "
                f"stays beside {original.name}",
                coded.hint,
            ) from error
    raise error


def _taken_back(error: Unsettled, made: Path, ref: str, done: str) -> BunzaiError:
    """The refusal of a burial or restore whose first write, `made`, the disk did not confirm
    durable: that file is removed again, so that the step after it (removing the file it copies)
    never runs on a copy a power cut may lose, and `ref` was not `done`."""
    undo_quietly(lambda: remove_file(made))
    if os.path.lexists(made):
        said = (
            f"the disk failed the sync that makes {made.name} durable, and it could not be removed again: it holds "
            f"a copy of {ref}, beside the file it was copied from"
        )
    else:
        said = f"the disk failed the sync that makes {made.name} durable, so it was removed again: {ref} was not {done}"
    return error.said_of(made, said)


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

    The entry, kind, id and time come from the file's name; whether bunzai reads the file (a
    link, an oversized file: `damaged`) from its stat. Only `revision`, the SHA-256 of the
    bytes, needs the file: it is kept in `.bunzai/graveyard.json` with the file's stat, so a
    listing reads only the entries buried or changed since the last one (see `_Revisions`).
    At most `limits.WALK_MAX_ENTRIES` folder entries are looked at (too_large beyond).
    """
    known = _Revisions(studio)
    found = [
        row
        for kind, item in scan_kind_folders(
            studio.graveyard_dir, KIND_NAMES, what="the graveyard", hint="empty old graveyard entries"
        )
        if (row := _entry_row(kind, item, known)) is not None
    ]
    known.save()
    return _newest_first(found)


def buried_entries(studio: Studio, kind: str, piece_id: str) -> list[dict]:
    """The graveyard entries of one piece, newest first (rows as `list_graveyard`'s): reads only
    that piece's files, so a revert undoing many burials does not read the graveyard each time.
    Their revisions are taken from the files themselves: a revert compares them byte for byte."""
    prefix = f"{check_id(piece_id)}@"
    try:
        listing = os.scandir(studio.graveyard_dir / check_kind(kind))
    except (FileNotFoundError, NotADirectoryError):
        return []
    with listing:
        found = [row for item in listing if item.name.startswith(prefix) and (row := _entry_row(kind, item))]
    return _newest_first(found)


def _entry_row(kind: str, item: os.DirEntry, known: _Revisions | None = None) -> dict | None:
    """The row of one file of `Graveyard/<kind>/`, None when it is no entry (a temp file, another
    name, a file gone since the folder was listed). A file bunzai will not read (a link, a folder
    or pipe under an entry's name, an oversized file) is a row naming why, with no revision:
    listed, so one such file hides no other entry. `known` gives revisions already taken."""
    match = _ENTRY_FILE.fullmatch(item.name)
    if is_temp_name(item.name) or match is None or not is_safe_id(match[1]):
        return None
    piece_id, stamp = match.groups()
    if _stamp_time(stamp) is None:
        return None
    entry = f"{kind}/{piece_id}@{stamp}"
    row = {"entry": entry, "kind": kind, "id": piece_id, "buried_at": _iso(stamp)}
    try:
        info = item.stat(follow_symlinks=False)
    except FileNotFoundError:
        return None
    refused = _unreadable(item.name, info)
    if refused is not None:
        return {**row, "revision": None, "damaged": refused}
    key = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    revision = known.get(entry, key) if known is not None else None
    if revision is None:
        try:
            raw = read_raw(Path(item.path), what=item.name)
        except BunzaiError as error:
            return {**row, "revision": None, "damaged": error.message}
        if raw is None:
            return None
        revision = revision_of(raw)
        if known is not None:
            known.put(entry, key, revision)
    return {**row, "revision": revision}


def _unreadable(name: str, info: os.stat_result) -> str | None:
    """Why `read_raw` would refuse the file of this stat (in its words), or None. Told from the
    stat, so such a file is never opened: opening a pipe would wait for a writer."""
    if stat.S_ISLNK(info.st_mode):
        return f"{name} is a symbolic link; bunzai reads only regular files in a studio"
    if not stat.S_ISREG(info.st_mode):
        return f"{name} is not a regular file; bunzai reads only regular files in a studio"
    if info.st_size > limits.JSON_MAX_BYTES:
        return f"{name} is {info.st_size} bytes; bunzai reads at most {limits.JSON_MAX_BYTES}"
    return None


class _Revisions:
    """The revisions of graveyard entries as last read, `.bunzai/graveyard.json`: entry ->
    [inode, size, mtime, ctime, revision]. A cache: deleting it changes no answer, only makes the
    next listing read every entry once.

    A revision is used only while the file's stat is the one recorded, and recorded only for a
    file whose mtime and ctime are older than the listing's start by `limits.INDEX_RACY_SECONDS`
    (the studio index's margin for the coarsest file-system clocks): any later change to such a
    file moves its ctime, so it is read again. A file changed in the tick it was read in could
    keep its stat; it is not recorded until it is that old. Entries gone are dropped on saving.
    The file is replaced in one rename when the listing saw anything new; where it cannot be
    written (a read-only studio) the listing is answered all the same."""

    def __init__(self, studio: Studio) -> None:
        self.studio = studio
        self.path = studio.state_dir / REVISIONS_FILE
        self.settled = time.time_ns() - int(limits.INDEX_RACY_SECONDS * 1e9)
        self.before = self._load()
        self.now: dict[str, list] = {}

    def _load(self) -> dict[str, list]:
        try:
            raw = read_raw(self.path, what=REVISIONS_FILE)
            data = json.loads(raw) if raw is not None else None
        except (BunzaiError, OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != REVISIONS_FORMAT:
            return {}
        rows = data.get("entries")
        return rows if isinstance(rows, dict) else {}

    def get(self, entry: str, key: tuple[int, int, int, int]) -> str | None:
        row = self.before.get(entry)
        if isinstance(row, list) and len(row) == 5 and tuple(row[:4]) == key and isinstance(row[4], str):
            self.now[entry] = row
            return row[4]
        return None

    def put(self, entry: str, key: tuple[int, int, int, int], revision: str) -> None:
        if key[2] < self.settled and key[3] < self.settled:
            self.now[entry] = [*key, revision]

    def save(self) -> None:
        if self.now == self.before:
            return
        data = json.dumps({"format": REVISIONS_FORMAT, "entries": self.now}, separators=(",", ":"), sort_keys=True)
        try:
            self.studio.writable_dir(self.studio.state_dir)
            replace_file(self.path, data.encode("utf-8"))
        except (BunzaiError, OSError):
            pass  # a cache: the next listing reads the entries again


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
    other = _names_other(data, kind, piece_id)
    if other is not None:
        raise BunzaiError(
            "invalid_piece",
            f"{entry} holds {other}, not {ref_of(kind, piece_id)}; nothing was restored",
            hint=f"rename {grave.name} back to the id it holds, or import its content through a draft",
        )


def _names_other(data: object, kind: str, piece_id: str) -> str | None:
    """The kind/id a parsed entry names (cut short) when it is a piece other than `kind/piece_id`."""
    if isinstance(data, dict) and (data.get("kind"), data.get("id")) != (kind, piece_id):
        return f"{str(data.get('kind'))[:40]!r}/{str(data.get('id'))[:140]!r}"
    return None


def entry_problem(kind: str, item: os.DirEntry) -> BunzaiError | None:
    """What is wrong with a file of `Graveyard/<kind>/` (for `bunzai doctor`), None when nothing is
    (a temp file is left to the doctor's temp check): a name that is no entry, which `graveyard
    list` does not show; a file bunzai will not read; bytes that are not a JSON object, which a
    restore would bring back as they are; a piece naming another than its file name, which a
    restore refuses (`_check_entry`)."""
    if is_temp_name(item.name):
        return None
    match = _ENTRY_FILE.fullmatch(item.name)
    if match is None or not is_safe_id(match[1]) or _stamp_time(match[2]) is None:
        return BunzaiError(
            "invalid_id",
            f"Graveyard/{kind}/{item.name} is not named as an entry (<id>@<stamp>.json); `graveyard list` skips it",
            hint="bunzai did not write it; move it out of the graveyard",
        )
    piece_id = match[1]
    entry = f"{kind}/{piece_id}@{match[2]}"
    try:
        refused = _unreadable(entry, item.stat(follow_symlinks=False))
        if refused is not None:
            raise BunzaiError("invalid_piece", refused, hint="replace it with the file itself, or move it out")
        raw = read_raw(Path(item.path), what=entry)
        if raw is None:
            return None
        data = load_json_bytes(raw, what=entry, max_depth=limits.WRAPPED_JSON_MAX_DEPTH)
    except FileNotFoundError:
        return None
    except BunzaiError as error:
        return BunzaiError(error.code, error.message, hint="a restore brings it back as it is; mend it, or move it out")
    if not isinstance(data, dict):
        return BunzaiError("invalid_piece", f"{entry} is not a JSON object", hint="mend it, or move it out")
    other = _names_other(data, kind, piece_id)
    if other is not None:
        return BunzaiError(
            "invalid_piece",
            f"{entry} holds {other}, not {ref_of(kind, piece_id)}: `graveyard restore` refuses it",
            hint=f"rename {item.name} back to the id it holds",
        )
    return None


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
        except Unsettled as error:  # its record is "not landed" once the file is gone again
            raise _taken_back(error, path, ref, f"restored ({entry} stays in the graveyard)") from None
        except BunzaiError as error:
            if error.code == "occupied":  # a writer that ignores bunzai's locks got there first
                raise _taken(ref, entry) from None
            raise
        restored = WriteResult(kind, piece_id, path, revision, seq)
        try:
            remove_file(grave)
        except Unsettled as error:  # restored whole: only the entry's removal is not confirmed durable
            error.landed = restored
            raise
        except BaseException as error:  # the entry stays buried: the piece goes again, the record is "not landed"
            _raise_taken_back(error, path, grave, ref)
    return restored
