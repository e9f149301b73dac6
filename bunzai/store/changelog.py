"""The append-only change log, `.bunzai/changes.jsonl`: one JSON line per write.

    {"seq": 12, "time": "2026-11-30T05:15:00.123456Z", "session": "...", "kind": "character",
     "id": "ada", "revision": "<sha256>", "op": "update", "base": "<sha256>"}

A record is written *before* the write it names lands (the store logs its intent, then
renames), so a writer killed at any point never leaves a piece revision on disk that the log
does not name. A killed writer may leave a record whose write never landed: the piece is
then still at the record's `base` (update: the revision it replaced; create and restore:
absent; delete and bury: still at `revision`). `bunzai doctor` reads the log that way.
`revision` is the revision written (create, update, restore) or removed (delete, bury);
`base` appears on updates.

`seq` is strictly increasing across processes: appends take an exclusive `flock` on the log
file itself and number the record after the last one. A writer remembers where its own last
record ended; when the file is still exactly that long nobody else appended and the next
seq is known without reading anything. Otherwise it reads the last `seq` from the file's
tail (at most `limits.CHANGELOG_TAIL_BYTES`; all of the file when the tail holds no record),
counting only the records readers take (`well_formed`). A line torn by a killed writer is skipped by
readers and never reused; the next record starts on a fresh line. Readers skip any other line
that is no record too; `bunzai doctor` notes a torn one (`is_torn`) and reports the others.
An append is fsynced at once, or at its `Batch`'s commit. `session` is $BUNZAI_SESSION, or a
random id per process.
A session id is a short slug (`check_session`): it labels the records, names the session's
cursor file and is what `bunzai revert` is given, so a BUNZAI_SESSION that is not one is
refused (`current_session`) before anything is written under it.

`annotated(session=..., revert_of=seq)` marks the records appended inside its block: `bunzai
revert` writes under the session it undoes, each record naming the seq it reverts, so a
second revert does not undo the first.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
from contextlib import contextmanager
from contextvars import ContextVar

from bunzai import limits
from bunzai.errors import BunzaiError, from_os_error
from bunzai.model import KIND_NAMES
from bunzai.model.ids import is_safe_id
from bunzai.store.locks import flock_waiting
from bunzai.store.studio import Studio

TYPE_CHECKING = False  # typing costs 3 ms to import; `bunzai read` imports this module and never needs it
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from bunzai.store.batch import Batch

OPS = ("create", "update", "delete", "bury", "restore")
ENV_SESSION = "BUNZAI_SESSION"

# ASCII only: an id names a cursor file, and a letter beyond ASCII may be spelled two ways (NFC,
# NFD) or look like another (Cyrillic a), two sessions of what reads as one name.
_SESSION = re.compile(rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,{limits.SESSION_MAX_LENGTH - 1}}}", re.ASCII)
SESSION_FORM = (
    f"a session id is 1 to {limits.SESSION_MAX_LENGTH} ASCII letters, digits, '.', '_' or '-', "
    "starting with a letter or digit, e.g. claude-code or agent.1"
)
_process_session = ""
# what a cut leaves of the token it ends in, past where the parser fails: nothing, a literal,
# a sign, a number's '.' or exponent, a \u escape
_CUT_TOKEN = re.compile(
    r"|n(u(ll?)?)?|t(r(ue?)?)?|f(a(l(se?)?)?)?|-|\.|[eE][-+]?|u[0-9a-fA-F]{0,4}(\\(u[0-9a-fA-F]{0,3})?)?", re.ASCII
)
_ANNOTATION_KEYS = ("session", "revert_of")
_annotation: ContextVar[dict[str, Any] | None] = ContextVar("bunzai_change_annotation", default=None)


def check_session(session: object) -> str:
    """`session` when it is a session id (a record's label, a cursor file's name); invalid_input otherwise."""
    if not isinstance(session, str) or not _SESSION.fullmatch(session):
        raise BunzaiError(
            "invalid_input",
            f"{str(session)[:80]!r} is not a session id",
            hint=f"{SESSION_FORM}; set {ENV_SESSION}, or pass --session",
        )
    return session


def current_session() -> str:
    """$BUNZAI_SESSION, or a random id made once per process. A BUNZAI_SESSION that is not a
    session id is refused (invalid_input): every writer asks for its label before it writes."""
    global _process_session
    named = os.environ.get(ENV_SESSION, "")
    if named:
        if not _SESSION.fullmatch(named):
            raise BunzaiError(
                "invalid_input",
                f"{ENV_SESSION}={named[:80]!r} is not a session id: bunzai labels its changes with it "
                "(and `bunzai revert` undoes them by it); nothing was written",
                hint=f"{SESSION_FORM}; set {ENV_SESSION} to one, or unset it",
            )
        return named
    if not _process_session:
        import secrets  # here: a read imports this module (through the store) and writes no record

        _process_session = secrets.token_hex(8)
    return _process_session


def record_session() -> str:
    """The label the records appended now carry: the session `annotated` gives, else
    `current_session()`; refused (invalid_input) when it is not a session id. A writer asks for
    it before it writes anything, so a label `bunzai revert` would refuse is never written."""
    annotation = _annotation.get() or {}
    return check_session(annotation["session"]) if "session" in annotation else current_session()


@contextmanager
def annotated(**fields: Any) -> Iterator[None]:
    """Records appended inside the block carry `fields` (`session` replaces the process's)."""
    unknown = set(fields) - set(_ANNOTATION_KEYS)
    if unknown:
        raise ValueError(f"unknown change-record annotation {sorted(unknown)}")
    token = _annotation.set({**(_annotation.get() or {}), **fields})
    try:
        yield
    finally:
        _annotation.reset(token)


def utc_now_iso() -> str:
    from datetime import UTC, datetime  # here: a read imports this module and writes no record

    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_record(line: bytes) -> dict[str, Any] | None:
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


def well_formed(record: dict[str, Any] | None) -> bool:
    """A record naming a piece bunzai could have written: what every reader of the log takes
    (a foreign or damaged line is skipped, and never numbers the next record)."""
    return (
        record is not None
        and record.get("op") in OPS
        and record.get("kind") in KIND_NAMES
        and is_safe_id(record.get("id"))
    )


def _last_seq(fd: int, size: int) -> tuple[int, bool]:
    """The highest seq of a record the readers take (`well_formed`) in the tail of the log
    (in all of it when the tail holds none), and whether the log ends mid-line. A foreign line's
    seq is not counted: numbering after it would leave a gap no reader can explain."""
    if size == 0:
        return 0, False
    start = max(0, size - limits.CHANGELOG_TAIL_BYTES)
    tail = os.pread(fd, size - start, start)
    lines = tail.split(b"\n")
    if start > 0:
        lines = lines[1:]  # the first line of the window may be cut
    last = _highest_seq(lines)
    if last is None and start > 0:
        last = _highest_seq(_lines_of(fd, size))
    return last or 0, not tail.endswith(b"\n")


def _highest_seq(lines) -> int | None:
    return max((r["seq"] for r in map(parse_record, lines) if well_formed(r)), default=None)


def _lines_of(fd: int, end: int) -> Iterator[bytes]:
    """The lines of the first `end` bytes of `fd`, read a chunk at a time."""
    position, pending = 0, b""
    while position < end:
        chunk = os.pread(fd, min(limits.CHANGELOG_TAIL_BYTES, end - position), position)
        if not chunk:
            break
        position += len(chunk)
        *lines, pending = (pending + chunk).split(b"\n")
        yield from lines
    yield pending


class _Log:
    """One process's open handle on a studio's log, and where its own last record ended."""

    def __init__(self, path: os.PathLike[str]) -> None:
        self.path = path
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC | os.O_NOFOLLOW, 0o666)
        self.end: tuple[int, int, int] | None = None  # (inode, size after our record, its seq)
        self.dirty = False

    def still_current(self) -> bool:
        """Whether the path still names our open file (the log was not moved aside)."""
        try:
            return os.stat(self.path).st_ino == os.fstat(self.fd).st_ino
        except FileNotFoundError:
            return False

    def append(self, fields: dict) -> int:
        flock_waiting(self.fd, "the change log")
        try:
            stat = os.fstat(self.fd)
            if self.end is not None and self.end[:2] == (stat.st_ino, stat.st_size):
                last, torn = self.end[2], False
            else:
                last, torn = _last_seq(self.fd, stat.st_size)
            seq = last + 1
            line = json.dumps({"seq": seq, "time": utc_now_iso(), **fields}, ensure_ascii=False) + "\n"
            if torn:
                line = "\n" + line
            data = memoryview(line.encode("utf-8"))
            try:
                while data:
                    data = data[os.write(self.fd, data) :]
            except OSError as error:
                raise self._cut_back(error, stat.st_size) from None
            self.end = (stat.st_ino, os.fstat(self.fd).st_size, seq)
            self.dirty = True
        finally:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
        return seq

    def _cut_back(self, error: OSError, size: int) -> OSError | BunzaiError:
        """What a failed append leaves said truly: the log cut back to `size` (under the flock, so no
        other record is lost), and the fault as it was (the write it was to name never happens, and
        nothing is half-written); or, where the disk refuses that too and part of the record stays,
        the coded refusal saying the log now ends with a cut-short line (readers skip it, `bunzai
        doctor` notes it as torn, the next record starts on a fresh line)."""
        was, cut = "may have been", "may end"  # where even its length cannot be read
        try:
            if os.fstat(self.fd).st_size == size:
                return error
            was, cut = "was", "ends"
            os.ftruncate(self.fd, size)
            return error
        except OSError:
            pass
        root = os.path.dirname(os.path.dirname(os.fspath(self.path)))  # <studio>/.bunzai/changes.jsonl
        coded = from_os_error(error, root, writing=False)
        if coded is None:
            return error
        return BunzaiError(
            coded.code,
            f"{coded.message}; the write was not done, but its change record {was} cut short: the change log "
            f"{cut} with a cut-short line, which readers skip and `bunzai doctor` notes as torn",
            coded.hint,
        )

    def sync(self) -> None:
        if self.dirty:
            os.fsync(self.fd)
            self.dirty = False


_logs: dict[str, _Log] = {}


def _forget_after_fork() -> None:
    global _process_session
    _process_session = ""
    _logs.clear()  # the child opens its own handles (inherited fds share the offset and flock)


os.register_at_fork(after_in_child=_forget_after_fork)


def _log_of(studio: Studio) -> _Log:
    key = os.fspath(studio.changes_log)
    log = _logs.get(key)
    if log is None or not log.still_current():
        if log is not None:
            os.close(log.fd)
        studio.writable_dir(studio.state_dir)
        log = _logs[key] = _Log(studio.changes_log)
    return log


def append_change(
    studio: Studio,
    *,
    kind: str,
    id: str,
    revision: str | None,
    op: str,  # noqa: A002
    base: str | None = None,
    batch: Batch | None = None,
) -> int:
    """Append one record; returns its seq. Durable now, or at `batch`'s commit."""
    if op not in OPS:
        raise ValueError(f"unknown change op {op!r}")
    fields: dict[str, Any] = {"session": record_session(), "kind": kind, "id": id, "revision": revision, "op": op}
    if op == "update":
        fields["base"] = base
    fields.update(_annotation.get() or {})
    log = _log_of(studio)
    seq = log.append(fields)
    if batch is None:
        log.sync()
    else:
        batch.on_commit(log.sync)
    return seq


def read_changes(studio: Studio, since: int = 0) -> list[dict[str, Any]]:
    """Every readable record with seq > `since`, in log order."""
    return list(iter_changes(studio, since))


def iter_changes(studio: Studio, since: int = 0):
    """Every readable record with seq > `since`, in log order, one at a time."""
    for _, _, record in log_lines(studio):
        if record is not None and record["seq"] > since:
            yield record


def log_lines(studio: Studio):
    """(line number from 1, bytes, record or None) of every line of the log, in order."""
    try:
        handle = open(studio.changes_log, "rb")
    except FileNotFoundError:
        return
    with handle:
        for number, line in enumerate(handle, 1):
            yield number, line, parse_record(line)


def is_torn(line: bytes) -> bool:
    """Whether `line` is the start of a record its writer never finished (killed mid-append, or
    appending now): what `append` writes, cut short. Anything else unreadable is foreign."""
    line, start = line.rstrip(b"\n"), b'{"seq": '
    if start.startswith(line):
        return bool(line)
    if not line.startswith(start):
        return False
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.reason != "unexpected end of data":
            return False
        text = line[: error.start].decode("utf-8", "replace")  # cut inside a character
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        # cut short: the parser failed on the token the cut ended in (it reports the token's start)
        rest = text[error.pos :]
        return error.msg.startswith("Unterminated string") or bool(_CUT_TOKEN.fullmatch(rest))
    return False
