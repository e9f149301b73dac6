"""Reading the change log as a feed: records with where they end, and which of them landed.

A record is written before its write lands (see `changelog`), so a record alone does not say
the piece changed. `landed` decides it the way `doctor` reads the log: a record's write
landed when the state the *next* record of the same piece found (checked under that piece's
lock when it was appended) is the state this record wrote; for a piece's latest record, when
the piece on disk is at that state. A latest record that looks unlanded may belong to a writer
between its record and its rename, so the piece's lock is waited for (the writer holds it from
before its record until after its rename) and the disk read again: what is still unlanded
then never will be. The wait makes no lock file (`locks.reading_lock`), so reading the feed
writes nothing and works in a studio the reader cannot write.

Only complete lines count: a line still being appended (no newline yet) is left for the next
read, so a reader's offset always sits at a line's end.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.store.canon import revision_of
from bunzai.store.changelog import parse_record, well_formed
from bunzai.store.locks import reading_lock
from bunzai.store.pieces import piece_lock_key, read_raw
from bunzai.store.studio import Studio

_WRITTEN = ("create", "update", "restore")  # ops after which the piece is at `revision`
_CHUNK = 1 << 16


@dataclass(frozen=True)
class Entry:
    """One record of the log and the byte offset just after its line."""

    record: dict[str, Any]
    end: int

    @property
    def seq(self) -> int:
        return self.record["seq"]

    @property
    def piece(self) -> tuple[str, str]:
        return self.record["kind"], self.record["id"]


def signature(studio: Studio) -> tuple[int, int, int] | None:
    """(inode, size, mtime) of the log, None when there is none: a cheap "did it change"."""
    try:
        stat = os.stat(studio.changes_log)
    except FileNotFoundError:
        return None
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


def entries_from(studio: Studio, offset: int = 0, *, mid_line: bool = False) -> Iterator[Entry]:
    """Every well-formed record on a complete line after byte `offset`, in log order. With
    `mid_line`, `offset` may fall inside a line: that line's rest is skipped."""
    try:
        fd = os.open(studio.changes_log, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except FileNotFoundError:
        return
    try:
        position, pending, skip = offset, b"", mid_line and offset > 0
        while True:
            chunk = os.pread(fd, _CHUNK, position)
            if not chunk:
                return  # an unfinished last line stays for the next read
            start = position - len(pending)  # where `pending + chunk` begins in the file
            position += len(chunk)
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop()
            for line in lines:
                start += len(line) + 1
                if skip:
                    skip = False
                    continue
                record = parse_record(line)
                if well_formed(record):
                    yield Entry(record, start)
    finally:
        os.close(fd)


def last_entry(studio: Studio) -> Entry | None:
    """The last well-formed record of the log, None when there is none. Reads the last
    `limits.CHANGELOG_TAIL_BYTES` (all of the log when they hold no record)."""
    try:
        size = os.stat(studio.changes_log).st_size
    except FileNotFoundError:
        return None
    start = max(0, size - limits.CHANGELOG_TAIL_BYTES)
    last = None
    for entry in entries_from(studio, start - 1 if start else 0, mid_line=start > 0):
        last = entry
    if last is None and start > 0:
        for entry in entries_from(studio, 0):
            last = entry
    return last


def entry_ending_at(studio: Studio, offset: int) -> Entry | None:
    """The record whose line ends exactly at byte `offset`, if any."""
    if offset <= 0:
        return None
    start = max(0, offset - limits.CHANGELOG_TAIL_BYTES)
    for entry in entries_from(studio, start - 1 if start else 0, mid_line=start > 0):
        if entry.end >= offset:
            return entry if entry.end == offset else None
    return None


def precondition(record: dict[str, Any]) -> tuple[bool, str | None]:
    """The state the record's writer found under the lock: (present, revision)."""
    op = record["op"]
    if op == "update":
        return True, record.get("base")
    if op in ("create", "restore"):
        return False, None
    return True, record.get("revision")  # delete, bury


def outcome(record: dict[str, Any]) -> tuple[bool, str | None]:
    """The state the record's write leaves the piece in when it lands: (present, revision)."""
    if record["op"] in _WRITTEN:
        return True, record.get("revision")
    return False, None


def landed(studio: Studio, entries: list[Entry], after: dict[tuple[str, str], dict] | None = None) -> list[bool]:
    """For each entry, whether its write landed. `after` holds, per piece, the first record
    that follows `entries` in the log (when the caller read on); otherwise the disk decides."""
    following: dict[tuple[str, str], dict] = dict(after or {})
    verdicts = [True] * len(entries)
    for index in range(len(entries) - 1, -1, -1):
        record = entries[index].record
        piece = entries[index].piece
        nxt = following.get(piece)
        if nxt is not None:
            found = precondition(nxt)
            verdicts[index] = _judge(record, found)
        else:
            verdicts[index] = _judge_on_disk(studio, record)
        following[piece] = record
    return verdicts


def _judge(record: dict[str, Any], found: tuple[bool, str | None]) -> bool:
    """Landed unless the state found is the one the record started from and not the one it made
    (a state neither explains, a hand edit in between, counts as landed: it is reported)."""
    if found == outcome(record):
        return True
    return found != precondition(record)


def _disk_state(studio: Studio, kind: str, piece_id: str) -> tuple[bool, str | None]:
    try:
        raw = read_raw(studio.piece_path(kind, piece_id), what=f"{kind}/{piece_id}")
    except BunzaiError:
        return True, None  # there, but not a file bunzai reads: no record's revision
    return (False, None) if raw is None else (True, revision_of(raw))


def _judge_on_disk(studio: Studio, record: dict[str, Any]) -> bool:
    kind, piece_id = record["kind"], record["id"]
    if _judge(record, _disk_state(studio, kind, piece_id)):
        return True
    with reading_lock(studio, piece_lock_key(kind, piece_id)):  # a writer mid-way finishes first
        return _judge(record, _disk_state(studio, kind, piece_id))


def state_of(studio: Studio, kind: str, piece_id: str) -> tuple[bool, str | None]:
    """(present, revision) of a piece on disk now."""
    return _disk_state(studio, kind, piece_id)
