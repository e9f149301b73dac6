"""Lifecycle writes that are not edits: delete, bury, restore. Each answers with a receipt."""

from __future__ import annotations

from bunzai.changes.receipts import receipt, refusal
from bunzai.errors import BunzaiError
from bunzai.store.changelog import record_session
from bunzai.store.graveyard import bury_piece, restore_entry as restore
from bunzai.store.pieces import delete_piece, resolve_ref

# Kinds other pieces can point at: deleting one may leave a dangling reference.
REFERENCED_KINDS = ("lorebook", "pack", "regex")


def _resolve_or_none(studio, ref: str) -> tuple[str | None, str, list]:
    """(kind, id, []) for a ref; (kind or None, id, the ids spelled alike) when nothing by that
    name exists."""
    try:
        return (*resolve_ref(studio, ref), [])
    except BunzaiError as error:
        if error.code != "not_found":
            raise
        kind, _, piece_id = ref.rpartition("/")
        return (kind or None), piece_id, list(error.details.get("suggestions") or [])


def _references_note(kind: str | None) -> dict:
    if kind in REFERENCED_KINDS:
        return {
            "references_checked": False,
            "note": f"pieces that refer to this {kind} were not checked; they may now point at nothing",
        }
    return {}


def _refused(op: str, target: dict, error: BunzaiError, close: list | None = None) -> dict:
    """The stale receipt of a delete or bury refused for a piece missing or at another revision
    (with the ids spelled alike, for a piece that is not there)."""
    current = error.details.get("current")
    missing = f"no {target['kind']} with id {target['id']!r}; " if current is None else ""
    return receipt(
        "stale",
        op=op,
        target=target,
        reason="missing" if current is None else "changed",
        revision=current,
        message=f"{missing}nothing was written",
        **({"suggestions": close} if close else {}),
    )


def _missing(op: str, ref: str, close: list) -> dict:
    """The stale receipt of a delete or bury naming a bare id no kind holds."""
    return receipt(
        "stale",
        op=op,
        target={"kind": None, "id": ref},
        reason="missing",
        message=f"no piece {ref!r}; nothing was written",
        **({"suggestions": close} if close else {}),
    )


def lifecycle_refusal(done: dict, what: str) -> BunzaiError | None:
    """A delete's or bury's refused receipt as the error an MCP tool raises (`receipts.refusal`,
    the receipt in details.receipts); its hint names tools, and the ids spelled alike."""
    refused = refusal([done], what, "read the piece again (studio_read) and pass its revision")
    if refused is not None and refused.code == "not_found" and done.get("suggestions"):
        refused.hint = f"did you mean {', '.join(done['suggestions'])}? ({refused.hint})"
    return refused


def delete_ref(studio, ref: str, revision: str | None) -> dict:
    """Delete a piece for good (reads it first). A miss or a revision mismatch is stale."""
    record_session()  # refused before anything is written when BUNZAI_SESSION is not a session id
    kind, piece_id, close = _resolve_or_none(studio, ref)
    target = {"kind": kind, "id": piece_id}
    if kind is None:
        return _missing("delete", ref, close)
    try:
        result = delete_piece(studio, kind, piece_id, revision)
    except BunzaiError as error:
        if error.code in ("stale", "not_found"):
            return _refused("delete", target, error, close)
        raise
    return receipt(
        "applied",
        op="delete",
        target=target,
        revision=None,
        seq=result.seq,
        deleted_revision=result.revision,
        **_references_note(kind),
    )


def bury_ref(studio, ref: str, revision: str | None) -> dict:
    """Move a piece to the graveyard, restorable with `graveyard restore`. A miss or a revision
    mismatch is stale, as for delete."""
    record_session()
    kind, piece_id, close = _resolve_or_none(studio, ref)
    target = {"kind": kind, "id": piece_id}
    if kind is None:
        return _missing("bury", ref, close)
    try:
        buried = bury_piece(studio, kind, piece_id, revision)
    except BunzaiError as error:
        if error.code in ("stale", "not_found"):
            return _refused("bury", target, error, close)
        raise
    return receipt(
        "applied",
        op="bury",
        target=target,
        revision=buried["revision"],
        seq=buried["seq"],
        entry=buried["entry"],
        **_references_note(kind),
    )


def restore_entry(studio, entry: str) -> dict:
    """Put a buried piece back under its id; refused when the id was taken since."""
    record_session()
    kind, _, rest = entry.partition("/")
    target = {"kind": kind or None, "id": rest.partition("@")[0] or None}
    try:
        result = restore(studio, entry)
    except BunzaiError as error:
        if error.code == "occupied":
            return receipt(
                "stale",
                op="restore",
                target=target,
                reason="occupied",
                entry=entry,
                message=f"{kind}/{target['id']} was taken since it was buried; nothing was written",
            )
        raise
    return receipt(
        "applied",
        op="restore",
        target={"kind": result.kind, "id": result.id},
        revision=result.revision,
        seq=result.seq,
        entry=entry,
        path=result.path.relative_to(studio.root).as_posix(),
    )
