"""The append-only change log, `.bunzai/changes.jsonl`: one JSON line per successful write.

    {"seq": 12, "time": "2026-11-30T05:15:00.123456Z", "session": "...", "kind": "character",
     "id": "ada", "revision": "<sha256>", "op": "update"}

`seq` is strictly increasing across processes: appends take the change-log lock, read the
last `seq` from the file's tail (at most `limits.CHANGELOG_TAIL_BYTES`), write one line and
fsync. A line torn by a killed writer is skipped by readers and never reused; the next
record starts on a fresh line. `session` is $BUNZAI_SESSION, or a random id per process.
"""

from __future__ import annotations

import json
import os
import secrets
from datetime import datetime, timezone
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.store.locks import path_lock
from bunzai.store.studio import Studio

OPS = ("create", "update", "delete", "bury", "restore")
ENV_SESSION = "BUNZAI_SESSION"
_LOCK_KEY = ".bunzai/changes.jsonl"

_process_session = ""


def _forget_session() -> None:
    global _process_session
    _process_session = ""


os.register_at_fork(after_in_child=_forget_session)


def current_session() -> str:
    """$BUNZAI_SESSION, or a random id made once per process."""
    global _process_session
    named = os.environ.get(ENV_SESSION, "")
    if named:
        return named
    if not _process_session:
        _process_session = secrets.token_hex(8)
    return _process_session


def utc_now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_record(line: bytes) -> dict[str, Any] | None:
    """A change record, or None for a torn or foreign line."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    seq = record.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        return None
    return record


def _last_seq(fd: int, size: int) -> tuple[int, bool]:
    """The highest seq in the tail of the log, and whether the log ends mid-line."""
    if size == 0:
        return 0, False
    start = max(0, size - limits.CHANGELOG_TAIL_BYTES)
    tail = os.pread(fd, size - start, start)
    lines = tail.split(b"\n")
    if start > 0:
        lines = lines[1:]  # the first line of the window may be cut
    seqs = [r["seq"] for r in map(_parse_record, lines) if r is not None]
    if not seqs and start > 0:
        raise BunzaiError(
            "internal",
            f"the last {limits.CHANGELOG_TAIL_BYTES} bytes of the change log hold no record",
            hint="the change log is damaged; move .bunzai/changes.jsonl aside and try again",
        )
    return max(seqs, default=0), not tail.endswith(b"\n")


def append_change(studio: Studio, *, kind: str, id: str, revision: str | None, op: str) -> int:  # noqa: A002
    """Append one record under the change-log lock; returns its seq."""
    if op not in OPS:
        raise ValueError(f"unknown change op {op!r}")
    studio.state_dir.mkdir(parents=True, exist_ok=True)
    with path_lock(studio, _LOCK_KEY):
        fd = os.open(studio.changes_log, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o666)
        try:
            size = os.fstat(fd).st_size
            last, torn = _last_seq(fd, size)
            seq = last + 1
            record = {
                "seq": seq,
                "time": utc_now_iso(),
                "session": current_session(),
                "kind": kind,
                "id": id,
                "revision": revision,
                "op": op,
            }
            line = json.dumps(record, ensure_ascii=False) + "\n"
            if torn:
                line = "\n" + line
            data = memoryview(line.encode("utf-8"))
            while data:
                data = data[os.write(fd, data) :]
            os.fsync(fd)
        finally:
            os.close(fd)
    return seq


def read_changes(studio: Studio, since: int = 0) -> list[dict[str, Any]]:
    """Every readable record with seq > `since`, in log order."""
    try:
        handle = open(studio.changes_log, "rb")
    except FileNotFoundError:
        return []
    records = []
    with handle:
        for line in handle:
            record = _parse_record(line)
            if record is not None and record["seq"] > since:
                records.append(record)
    return records
