"""Watching a studio: what changed since a session last looked (`studio_changes`), and
waiting for one declarative condition (`studio_wait`). Both read the change log
(`.bunzai/changes.jsonl`) and report only writes that landed (see `store.feed`).

Session labels are self-declared: whoever starts a process chooses its BUNZAI_SESSION (or
gets a random one), so a label attributes a change and proves nothing about who made it.
"""

from __future__ import annotations

import errno
import os
import time
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError, from_os_error
from bunzai.model import KIND_NAMES
from bunzai.store.changelog import check_session, current_session
from bunzai.store.cursors import read_cursor, write_cursor
from bunzai.store.feed import entries_from, entry_ending_at, landed, last_entry, signature, state_of
from bunzai.store.studio import Studio, check_id, find_studio
from bunzai.validate import check_kind

ATTRIBUTION = (
    "session labels are self-declared by the process that wrote each change: they attribute, they do not authenticate"
)


def as_studio(studio: Any):
    """A `Studio` from a Studio, a path, or None (the studio the CLI would find)."""
    return studio if isinstance(studio, Studio) else find_studio(studio)


def session_or_current(session: str | None) -> str:
    """The session given (checked: a session id), else this process's (`current_session`, which
    refuses a BUNZAI_SESSION that is not one: the same rule every write follows)."""
    return current_session() if session is None else check_session(session)


def _count(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BunzaiError(
            "invalid_input",
            f"{what} must be a whole number of 0 or more, not {value!r}",
            hint="a seq is the number a change log record carries (see `bunzai changes`)",
        )
    return value


# --- the window of records after a point ---------------------------------------------


def _window(studio, start: int, after_seq: int, limit: int, passed: list | None = None) -> tuple[list, dict, bool]:
    """Up to `limit` records with seq > `after_seq` from byte `start`; the first later record
    of each of their pieces (so `landed` can judge them); whether more records followed.
    `passed`, when given, gets the end of the last record skipped before the window."""
    window: list = []
    following: dict[tuple[str, str], dict] = {}
    more = False
    pieces: set[tuple[str, str]] = set()  # the window's pieces, made once it is full
    for entry in entries_from(studio, start):
        if entry.seq <= after_seq:
            if passed is not None and not window:
                passed[:] = [entry.end]
            continue
        if len(window) < limit:
            window.append(entry)
            continue
        if not more:
            more, pieces = True, {e.piece for e in window}
        if entry.piece in pieces and entry.piece not in following:
            following[entry.piece] = entry.record
            if len(following) == len(pieces):
                break
    return window, following, more


def _landed_window(
    studio, start: int, after_seq: int, limit: int, passed: list | None = None
) -> tuple[list, list, bool]:
    """(window, landed entries of it, more) — see `_window`."""
    window, following, more = _window(studio, start, after_seq, limit, passed)
    verdicts = landed(studio, window, following)
    return window, [entry for entry, ok in zip(window, verdicts) if ok], more


def change_row(record: dict) -> dict:
    row = {key: record[key] for key in ("seq", "time", "op", "kind", "id", "revision") if key in record}
    row["ref"] = f"{record['kind']}/{record['id']}"
    for key in ("base", "revert_of"):
        if key in record:
            row[key] = record[key]
    return row


def _items(entries: list, session: str) -> list[dict]:
    """The reported changes in seq order, each naming the session that made it (and whether that is `session`)."""
    rows = []
    for entry in entries:
        label = entry.record.get("session")
        label = label if isinstance(label, str) else ""
        rows.append({**change_row(entry.record), "session": label, "mine": label == session})
    return rows


# --- studio_changes ------------------------------------------------------------------


def studio_changes(
    studio: Any = None, session: str | None = None, since: int | None = None, save: bool | None = None
) -> dict:
    """What changed since `session` (default: this process's) last read, in seq order, each change
    naming the session that made it. Without `since` the session's cursor is read and moved past what is
    reported; with `since` the records after that seq are reported and the cursor is left alone.

    basis: `first-read` (no cursor yet: nothing is reported, the cursor is set at the head),
    `since-cursor`, `since-seq` (an explicit `since`), or `resync` (the cursor, or `since`, is
    beyond what the log holds, or the log was rewritten: the cursor is set at the head).

    `save`: None moves the cursor when this process may write the studio, and otherwise answers
    all the same with the cursor left (`cursor_saved: false` and a warning); True refuses
    (studio_read_only, permission_denied) rather than leave it; False never moves it.
    """
    studio = as_studio(studio)
    session = session_or_current(session)
    if since is not None and save:
        raise BunzaiError(
            "invalid_input",
            "since leaves the session's cursor where it is, so it cannot also save it",
            hint="read from the cursor (no since) to move it, or drop the request to save it",
        )
    last = last_entry(studio)
    head = last.seq if last else 0
    base = {"session": session, "head": head, "attribution": ATTRIBUTION}

    def move(entry) -> dict:
        return _move_cursor(studio, session, save, entry)

    def at_head(basis: str, note: str, *, moving: bool = True) -> dict:
        return {
            "basis": basis,
            **base,
            "since": None,
            "next": head,
            "count": 0,
            "items": [],
            "truncated": False,
            "note": note,
            **(move(last) if moving else {"cursor_saved": False}),
        }

    if since is not None:
        since = _count(since, "since")
        if since > head:
            return at_head(
                "resync",
                f"seq {since} is beyond the log's last record ({head}); read again with --since from the head",
                moving=False,
            )
        return _report(studio, "since-seq", base, session, 0, since, move=None)
    cursor = read_cursor(studio, session)
    if cursor is None:
        return at_head(
            "first-read",
            "this session had not read the log yet: changes made before now "
            f"are not reported; later ones will be, from seq {head}",
        )
    start = None if cursor.get("damaged") else _anchor(studio, cursor)
    if start is None:
        return at_head(
            "resync",
            "the log no longer holds this session's cursor (it was moved aside, cut or "
            f"rewritten): changes before now are not reported; later ones will be, from seq {head}",
        )
    return _report(studio, "since-cursor", base, session, start, cursor["seq"], move=move)


# The faults that mean "this process may not write the studio" (a read-only mount, no write
# rights): a read answers without its cursor. A full disk is not one of them: it passes.
_UNWRITABLE = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})


def _move_cursor(studio, session: str, save: bool | None, entry) -> dict:
    """Move the session's cursor to `entry` (None: the start of an empty log) unless `save` is
    False; the answer's fields saying whether it stands there now (see `studio_changes`)."""
    if save is False:
        return {"cursor_saved": False}
    seq = entry.seq if entry else 0
    try:
        write_cursor(
            studio, session, seq=seq, end=entry.end if entry else 0, time=entry.record.get("time") if entry else None
        )
    except OSError as error:
        # the studio, not the cursor's temp file in .bunzai/ the system refused
        coded = from_os_error(error, studio.root) if error.errno in _UNWRITABLE else None
        if coded is None:
            raise
        if save:
            raise BunzaiError(
                coded.code,
                f"the cursor of session {session} cannot be saved: {coded.message}",
                hint=f"read with --since SEQ instead, which saves nothing; {coded.hint}",
            ) from None
        return {
            "cursor_saved": False,
            "warnings": [
                f"{coded.code}: this process cannot write the studio, so the cursor of session {session} "
                f"was left where it was; read on with --since {seq}"
            ],
        }
    return {"cursor_saved": True}


def _anchor(studio, cursor: dict) -> int | None:
    """The byte offset to read on from, when the log still holds the cursor's record there
    (or anywhere: a log rewritten with the same records); None when it does not."""
    if cursor["seq"] == 0:
        return 0 if cursor["end"] == 0 else None

    def same(entry) -> bool:
        return entry is not None and entry.seq == cursor["seq"] and entry.record.get("time") == cursor.get("time")

    if same(entry_ending_at(studio, cursor["end"])):
        return cursor["end"]
    for entry in entries_from(studio, 0):
        if same(entry):
            return entry.end
        if entry.seq > cursor["seq"]:
            break
    return None


def _report(studio, basis: str, base: dict, session: str, start: int, after_seq: int, move) -> dict:
    """The landed changes after `after_seq`; `move(entry)` moves the cursor past them (None: it stays)."""
    window, reported, more = _landed_window(studio, start, after_seq, limits.CHANGES_MAX_REPORTED)
    last = window[-1] if window else None
    # without a window the cursor already stands at `next`
    cursor = {"cursor_saved": move is not None} if move is None or last is None else move(last)
    if last is not None and last.seq > base["head"]:  # appended while this was being read
        base = {**base, "head": last.seq}
    doc = {
        "basis": basis,
        **base,
        "since": after_seq,
        "next": last.seq if last else after_seq,
        "count": len(reported),
        "items": _items(reported, session),
        "truncated": more,
        **cursor,
    }
    if len(window) > len(reported):
        doc["not_landed"] = len(window) - len(reported)  # logged intents whose writer stopped first
    if more:
        doc["note"] = (
            f"more than {limits.CHANGES_MAX_REPORTED} changes: read again for the rest"
            if cursor["cursor_saved"]
            else f"read again with --since {doc['next']} for the rest"
        )
    return doc


# --- studio_wait ---------------------------------------------------------------------


def _timeout(value: Any) -> float:
    if value is None:
        return limits.WAIT_DEFAULT_SECONDS
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= limits.WAIT_MAX_SECONDS:
        raise BunzaiError(
            "invalid_input",
            f"timeout must be between 0 and {limits.WAIT_MAX_SECONDS:g} seconds, not {value!r}",
            hint=f"the default is {limits.WAIT_DEFAULT_SECONDS:g} s; wait again for longer",
        )
    return float(value)


def _piece_places(ref: Any) -> list[tuple[str, str]]:
    """(kind, id) places a ref may name: one for kind/id, every kind for a bare id."""
    if not isinstance(ref, str) or not ref:
        raise BunzaiError("invalid_input", f"{ref!r} is not a piece reference", hint="write kind/id or an id")
    if "/" in ref:
        kind, piece_id = ref.split("/", 1)
        return [(check_kind(kind), check_id(piece_id))]
    check_id(ref)
    return [(kind, ref) for kind in KIND_NAMES]


def _revision_target(value: Any) -> tuple[list[tuple[str, str]], str]:
    import re

    ref, at, revision = value.rpartition("@") if isinstance(value, str) else ("", "", "")
    if not at or not re.fullmatch(r"[0-9a-f]{64}", revision):
        raise BunzaiError(
            "invalid_input",
            f"{str(value)[:120]!r} is not REF@REVISION",
            hint="e.g. character/ada@<the 64-hex-digit revision a receipt or `bunzai read` gives>",
        )
    return _piece_places(ref), revision


def _file_stat(path) -> tuple[int, int, int] | None:
    try:
        stat = os.stat(path, follow_symlinks=False)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


class _ChangedSince:
    def __init__(self, studio, seq: int) -> None:
        self.studio, self.seq = studio, seq
        self.start, self.inode = 0, None  # records before `start` are known to be at or below `seq`

    def paths(self) -> list:
        return []

    def check(self) -> dict | None:
        sig = signature(self.studio)
        if sig is None or sig[0] != self.inode or sig[1] < self.start:  # a new or cut log: read it all
            self.start, self.inode = 0, None if sig is None else sig[0]
        passed = [self.start]
        _, landed_entries, _ = _landed_window(self.studio, self.start, self.seq, limits.CHANGES_MAX_REPORTED, passed)
        self.start = passed[0]
        if landed_entries:
            first = landed_entries[0].record
            return {"change": {**change_row(first), "session": first.get("session")}}
        return None


class _PieceExists:
    def __init__(self, studio, ref: str) -> None:
        self.studio, self.places = studio, _piece_places(ref)

    def paths(self) -> list:
        return [self.studio.piece_path(kind, piece_id) for kind, piece_id in self.places]

    def check(self) -> dict | None:
        for kind, piece_id in self.places:
            present, revision = state_of(self.studio, kind, piece_id)
            if present:
                return {"ref": f"{kind}/{piece_id}", "revision": revision}
        return None


class _RevisionChanged:
    def __init__(self, studio, value: str) -> None:
        self.studio = studio
        places, self.revision = _revision_target(value)
        if len(places) > 1:  # a bare id: the piece that holds it now (ambiguous when several do)
            held = [place for place in places if state_of(studio, *place)[0]]
            if len(held) > 1:
                refs = [f"{kind}/{piece_id}" for kind, piece_id in held]
                raise BunzaiError(
                    "ambiguous_ref",
                    f"{places[0][1]!r} names {len(held)} pieces: {', '.join(refs)}",
                    hint=f"write the kind too, e.g. {refs[0]}",
                    matches=refs,
                )
            places = held or places[:0]
        self.places = places

    def paths(self) -> list:
        return [self.studio.piece_path(kind, piece_id) for kind, piece_id in self.places]

    def check(self) -> dict | None:
        if not self.places:
            return {"ref": None, "exists": False, "revision": None}
        kind, piece_id = self.places[0]
        present, revision = state_of(self.studio, kind, piece_id)
        if present and revision == self.revision:
            return None
        return {"ref": f"{kind}/{piece_id}", "exists": present, "revision": revision}


def studio_wait(
    studio: Any = None,
    *,
    changed_since: int | None = None,
    piece_exists: str | None = None,
    revision_changed: str | None = None,
    timeout: float | None = None,
) -> dict:
    """Block until one condition holds or `timeout` seconds pass (default and most in limits.py).

    Exactly one of: `changed_since` (a landed change with a seq above it), `piece_exists`
    (kind/id or an id), `revision_changed` ("REF@REVISION": the piece is at another revision,
    or gone). Nothing is evaluated: the conditions are data. A timeout is an answer
    (`met: false`), not an error. The log (and the watched piece) is stat-polled every
    `limits.WAIT_POLL_SECONDS`; the condition is checked again only when they changed.
    """
    given = {
        name: value
        for name, value in (
            ("changed_since", changed_since),
            ("piece_exists", piece_exists),
            ("revision_changed", revision_changed),
        )
        if value is not None
    }
    if len(given) != 1:
        raise BunzaiError(
            "invalid_input",
            f"wait takes exactly one condition; {len(given)} were given",
            hint="give one of changed_since, piece_exists, revision_changed",
        )
    seconds = _timeout(timeout)
    studio = as_studio(studio)
    ((name, value),) = given.items()
    if name == "changed_since":
        condition: Any = _ChangedSince(studio, _count(value, "changed_since"))
    elif name == "piece_exists":
        condition = _PieceExists(studio, value)
    else:
        condition = _RevisionChanged(studio, value)
    return _poll(studio, condition, {name: value}, seconds)


def _poll(studio, condition, described: dict, seconds: float) -> dict:
    started = time.monotonic()
    deadline = started + seconds
    paths = condition.paths()
    seen = None
    while True:
        now_sig = (signature(studio), [_file_stat(path) for path in paths])
        if now_sig != seen:
            seen = now_sig
            found = condition.check()
            if found is not None:
                return _waited(studio, True, described, seconds, started, found)
        left = deadline - time.monotonic()
        if left <= 0:
            return _waited(studio, False, described, seconds, started, {})
        time.sleep(min(limits.WAIT_POLL_SECONDS, left))


def _waited(studio, met: bool, described: dict, seconds: float, started: float, found: dict) -> dict:
    last = last_entry(studio)
    return {
        "met": met,
        "condition": described,
        "timeout_seconds": seconds,
        "waited_seconds": round(time.monotonic() - started, 3),
        "head": last.seq if last else 0,
        **found,
    }
