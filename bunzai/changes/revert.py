"""`studio_revert`: undo one session's own changes, newest first, each through the write doors.

For each change the session made (read from the change log; only writes that landed, and not
the ones a revert already undid):

- update  -> an update draft back to the revision it replaced (kept in `.bunzai/history`),
             applied through `apply` with the piece's checked revision as its baseline;
- create, restore -> buried (to the graveyard), only if the piece is still at its checked revision;
- delete  -> created again from the revision kept when it was deleted;
- bury    -> its graveyard entry restored.

A piece's checked revision is the one the change wrote, or the one this run's undo of a newer
change of it wrote: apply writes a piece's canonical bytes, so putting back a revision that was
not canonical (a hand-made file restored from the graveyard) lands under another revision.

A piece another session changed after this session's change is left as that session left
it (`revert_forbidden`, naming the session and seq); so is one changed by hand (its revision
is not the one the change wrote). A revision history no longer holds, or a graveyard entry
gone, is `revert_unavailable`. The revert's own records carry the reverted session's label
and `revert_of` (the seq they undo), so reverting again does not undo the revert.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from typing import Any

from bunzai import limits
from bunzai.changes.apply import apply_draft
from bunzai.changes.draft import new_draft
from bunzai.changes.lifecycle import bury_ref, restore_entry
from bunzai.changes.receipts import receipt
from bunzai.changes.watch import ATTRIBUTION, as_studio, session_or_current
from bunzai.errors import CODES, BunzaiError
from bunzai.store.changelog import annotated
from bunzai.store.faults import caught_fault
from bunzai.store.feed import entries_from, landed, outcome, state_of
from bunzai.store.graveyard import buried_entries
from bunzai.store.history import is_kept, needed_by_revert, read_revision
from bunzai.store.pieces import read_stored

STATUSES = ("reverted", "forbidden", "unavailable", "failed")


def studio_revert(studio: Any = None, session: str | None = None) -> dict:
    """Undo `session`'s own changes (default: this process's session), newest first; one row per
    change: reverted, forbidden (revert_forbidden), unavailable (revert_unavailable) or failed."""
    studio = as_studio(studio)
    session = session_or_current(session)
    touched = {entry.piece for entry in entries_from(studio) if entry.record.get("session") == session}
    entries = [entry for entry in entries_from(studio) if entry.piece in touched]
    landed_entries = [entry for entry, ok in zip(entries, landed(studio, entries)) if ok]
    undone = {entry.record["revert_of"] for entry in landed_entries if isinstance(entry.record.get("revert_of"), int)}
    own = [
        entry
        for entry in landed_entries
        if entry.record.get("session") == session and "revert_of" not in entry.record and entry.seq not in undone
    ]
    own.reverse()
    others = _Others(landed_entries, session)
    todo, left_out = _chosen(studio, own, others)
    truncated = len(own) > len(todo)
    wrote: dict[tuple[str, str], tuple[bool, str | None]] = {}  # where this run's reverts left each piece
    rows = []
    # the revisions later undos put back, of this run and of the runs after it (a limit splits a
    # long session): this run's own writes must not prune them from history
    with needed_by_revert({need for entry in own if (need := _needs(entry))}):
        for entry in todo:
            try:
                row = _revert_one(studio, session, entry, others, wrote.get(entry.piece))
            except BunzaiError as error:  # one undo refused (a lock held too long ...): the others go on
                row = _failed_row(entry, error)
            except OSError as error:  # a burial's or restore's disk fault (a full disk, a failing unlink): so too
                coded = caught_fault(error, studio.root)  # as the CLI's last catch codes it
                if coded is None:
                    raise
                row = _failed_row(entry, coded)
            receipt = row.get("receipt") or {}
            if row["status"] == "reverted" and receipt:
                wrote[entry.piece] = (receipt.get("op") in ("create", "update", "restore"), receipt.get("revision"))
            rows.append(row)
    doc: dict[str, Any] = {
        "session": session,
        **{status: sum(r["status"] == status for r in rows) for status in STATUSES},
        "truncated": truncated,
        "changes": rows,
        "attribution": ATTRIBUTION,
    }
    if truncated:
        doc["note"] = (
            f"{len(own) - len(todo)} more change(s) were not looked at: run revert again for the rest (each is "
            "checked again as it is undone)"
            if left_out
            else f"{len(own) - len(todo)} more change(s) were not looked at; each was changed since by another "
            "session or by hand, or its undo (or that of a newer change of its piece) has nothing left to put "
            "back, so revert leaves them as they are"
        )
    return doc


class _Others:
    """Per piece, the landed changes of sessions other than the one reverted, in seq order."""

    def __init__(self, landed_entries: list, session: str) -> None:
        self._by_piece: dict[tuple[str, str], list] = {}
        for entry in landed_entries:
            if entry.record.get("session") != session:
                self._by_piece.setdefault(entry.piece, []).append(entry)
        self._seqs: dict[tuple[str, str], list[int]] = {}
        for piece, entries in self._by_piece.items():
            entries.sort(key=lambda other: other.seq)
            self._seqs[piece] = [other.seq for other in entries]

    def first_after(self, entry):
        """The first change of another session to `entry`'s piece after it, or None."""
        seqs = self._seqs.get(entry.piece)
        if not seqs:
            return None
        at = bisect_right(seqs, entry.seq)
        return self._by_piece[entry.piece][at] if at < len(seqs) else None


def _chosen(studio, own: list, others: _Others) -> tuple[list, bool]:
    """The changes (of `own`, newest first) this run looks at, newest first, and whether any it
    could undo were left out. At most `limits.REVERT_MAX_CHANGES`, those it could undo first: a
    change another session or a hand edit has overtaken stays so, as does one whose kept revision
    or graveyard entry is gone (and every older change of its piece), and newest-first alone would
    fill every later run with the same refusals and never reach the older changes it can undo.
    A piece's changes chosen are still its newest ones (its overtaken ones are its oldest)."""
    limit = limits.REVERT_MAX_CHANGES
    if len(own) <= limit:
        return own, False
    newest: dict[tuple[str, str], Any] = {}
    for entry in own:
        if others.first_after(entry) is None:
            newest.setdefault(entry.piece, entry)
    # a piece not as its newest change left it was changed by hand: every change of it is left
    edited = {piece for piece, entry in newest.items() if state_of(studio, *piece) != outcome(entry.record)}
    open_: list = []
    blocked: set[tuple[str, str]] = set()  # pieces past whose first change it cannot undo nothing older is undone
    for entry in own:
        if len(open_) > limit:
            break
        if entry.piece not in newest or entry.piece in edited or entry.piece in blocked:
            continue
        if others.first_after(entry) is not None or not _available(studio, entry):
            blocked.add(entry.piece)
            continue
        open_.append(entry)
    chosen = open_[:limit]
    taken = {entry.seq for entry in chosen}
    chosen += [entry for entry in own if entry.seq not in taken][: limit - len(chosen)]
    chosen.sort(key=lambda entry: entry.seq, reverse=True)
    return chosen, len(open_) > limit


def _available(studio, entry) -> bool:
    """Whether what undoing `entry` puts back is still there: the kept revision (an update, a
    delete), the graveyard entry (a burial); the real undo checks it again, byte for byte."""
    record = entry.record
    if record["op"] == "update" and record.get("base") == record["revision"]:
        return True  # nothing to put back
    need = _needs(entry)
    if need is not None:
        return is_kept(studio, *need)
    if record["op"] == "bury":
        return any(
            row["revision"] == record["revision"] for row in buried_entries(studio, record["kind"], record["id"])
        )
    return True


def _needs(entry) -> tuple[str, str, str] | None:
    """(kind, id, revision) of the kept revision undoing `entry` reads, if it reads one."""
    record = entry.record
    revision = {"update": record.get("base"), "delete": record.get("revision")}.get(record["op"])
    return (record["kind"], record["id"], revision) if isinstance(revision, str) else None


def revert_refusal(report: dict) -> BunzaiError | None:
    """None when every change looked at was reverted, each confirmed durable; else the coded error
    a caller that answers a refusal as an error raises (the MCP tool: `isError`, where the CLI
    prints the report and exits 1), with the report as its details: `revert_forbidden` when a
    change was left as another session (or a person) left it, else `revert_unavailable`, else the
    failed write's code; when every change was reverted, the first unconfirmed one's warning code."""
    left = [row for row in report["changes"] if row["status"] != "reverted"]
    if not left:
        shaky = unconfirmed(report)
        if not shaky:
            return None
        warning = shaky[0]["receipt"]["warning"]  # as `apply` refuses a receipt not confirmed durable
        return BunzaiError(
            str(warning["code"]),
            f"revert undid {report['reverted']} change(s) of session {report['session']!r}, but the disk did not "
            f"confirm {len(shaky)} of them durable: {warning['message']}",
            str(warning["hint"]),
            report=report,
        )
    if report["forbidden"]:
        code = "revert_forbidden"
    elif report["unavailable"]:
        code = "revert_unavailable"
    else:
        reason = (left[0].get("receipt") or {}).get("reason")
        code = reason if reason in CODES else "invalid_draft"  # a failed write's reason is its error code
    counts = ", ".join(f"{report[status]} {status}" for status in STATUSES[1:] if report[status])
    return BunzaiError(
        code,
        f"revert undid {report['reverted']} of {len(report['changes'])} change(s) of session "
        f"{report['session']!r}; {counts}: those are left as they are",
        "each row of details.report.changes says why; a piece another session changed since is theirs to revert",
        report=report,
    )


def unconfirmed(report: dict) -> list[dict]:
    """The rows of changes undone whose write the disk did not confirm durable: each row's receipt
    says `durable: false`, with a warning (a power cut may still undo the undo). The CLI exits 1 for
    them and the MCP tool refuses them, as `apply` does for its own such receipts."""
    return [
        row
        for row in report["changes"]
        if row["status"] == "reverted" and (row.get("receipt") or {}).get("durable") is False
    ]


def _row(entry, status: str, message: str, **extra: Any) -> dict:
    record = entry.record
    row = {"seq": record["seq"], "op": record["op"], "ref": f"{record['kind']}/{record['id']}", "status": status}
    code = {"forbidden": "revert_forbidden", "unavailable": "revert_unavailable"}.get(status)
    if code:
        row["code"] = code
    row["message"] = message
    row.update(extra)
    return row


def _revert_one(studio, session: str, entry, others: _Others, left: tuple | None) -> dict:
    later = others.first_after(entry)
    if later is not None:
        by = later.record.get("session")
        return _row(
            entry,
            "forbidden",
            f"session {by!r} changed it after (seq {later.seq}); left as that session left it",
            by={"session": by, "seq": later.seq},
        )
    present, revision = state_of(studio, *entry.piece)
    if (present, revision) not in (outcome(entry.record), left):  # `left`: a newer change of it reverted just now
        now = f"at revision {revision}" if present and revision else ("present" if present else "gone")
        return _row(
            entry,
            "forbidden",
            f"it is {now}, not as this change left it (changed outside the change log, "
            "or by a later change of this session that was not reverted); left as it is",
            revision=revision,
        )
    # the undo's write holds the piece to `revision`, checked just now: a piece changed since is
    # refused by that write (stale), never overwritten or buried
    with annotated(session=session, revert_of=entry.seq):
        return _UNDO[entry.record["op"]](studio, session, entry, revision)


def _failed_row(entry, error: BunzaiError) -> dict:
    record = entry.record
    done = receipt(
        "failed",
        op=_UNDO_OP[record["op"]],
        target={"kind": record["kind"], "id": record["id"]},
        reason=error.code,
        message=error.message,
    )
    return _row(entry, "failed", error.message, receipt=done)


def _receipt_row(entry, done: dict) -> dict:
    if done.get("status") == "applied":
        return _row(entry, "reverted", "undone", receipt=done)
    if done.get("status") == "stale":
        return _row(entry, "forbidden", "it changed while it was being reverted; left as it is", receipt=done)
    return _row(entry, "failed", done.get("message") or "the write was refused", receipt=done)


def _operation(session: str, entry) -> list[dict]:
    return [
        {"op": "revert", "input": {"session": session, "seq": entry.seq, "undoes": entry.record["op"]}, "warnings": []}
    ]


def _kept(studio, entry, revision: str):
    """The kept piece document of `revision`, or None when history no longer holds it."""
    raw = read_revision(studio, entry.record["kind"], entry.record["id"], revision)
    return None if raw is None else json.loads(raw)


def _undo_update(studio, session: str, entry, revision: str | None) -> dict:
    record = entry.record
    if record.get("base") == record["revision"]:
        return _row(entry, "reverted", "the change wrote the revision it replaced: nothing to undo")
    before = _kept(studio, entry, record.get("base"))
    if before is None:
        return _row(
            entry,
            "unavailable",
            f"the revision it replaced ({str(record.get('base'))[:12]}…) is no longer "
            "kept (history keeps the newest revisions of each piece)",
        )
    current = read_stored(studio, record["kind"], record["id"])
    draft = new_draft(
        mode="update",
        proposed=before,
        baseline=revision,
        before=current.data,
        operations=_operation(session, entry),
    )
    return _receipt_row(entry, apply_draft(studio, draft))


def _undo_create(studio, session: str, entry, revision: str | None) -> dict:
    record = entry.record
    return _receipt_row(entry, bury_ref(studio, f"{record['kind']}/{record['id']}", revision, check_references=False))


def _undo_delete(studio, session: str, entry, revision: str | None) -> dict:
    piece = _kept(studio, entry, entry.record["revision"])
    if piece is None:
        return _row(entry, "unavailable", "the deleted revision is no longer kept")
    draft = new_draft(mode="create", proposed=piece, operations=_operation(session, entry))
    return _receipt_row(entry, apply_draft(studio, draft))


def _undo_bury(studio, session: str, entry, revision: str | None) -> dict:
    record = entry.record
    graves = [
        row for row in buried_entries(studio, record["kind"], record["id"]) if row["revision"] == record["revision"]
    ]
    if not graves:
        return _row(entry, "unavailable", "its graveyard entry is gone")
    return _receipt_row(entry, restore_entry(studio, graves[0]["entry"]))


_UNDO_OP = {"update": "update", "create": "bury", "restore": "bury", "delete": "create", "bury": "restore"}
_UNDO = {
    "update": _undo_update,
    "create": _undo_create,
    "restore": _undo_create,
    "delete": _undo_delete,
    "bury": _undo_bury,
}
