"""The apply door: the only place a draft becomes a stored piece.

It re-validates the proposed piece, compares the stored revision with the draft's
baseline under the per-path lock (in the store), saves once, and the store re-reads and
verifies. Every outcome is a receipt; nothing is written unless the receipt says applied.
"""

from __future__ import annotations

from bunzai.changes.draft import parse_draft
from bunzai.changes.receipts import receipt
from bunzai.changes.validation import validate_piece
from bunzai.errors import BunzaiError


def apply_draft(studio, doc: dict) -> dict:
    """Apply one draft; return its receipt. Invalid drafts raise BunzaiError."""
    from bunzai.model import dump_piece
    from bunzai.store.pieces import create_piece, update_piece

    draft = parse_draft(doc)
    target, mode = draft["target"], draft["mode"]
    try:
        data = dump_piece(validate_piece(draft["proposed"]))
    except BunzaiError as error:
        return receipt("failed", op=mode, target=target, reason=error.code, message=error.message)
    try:
        if mode == "create":
            result = create_piece(studio, data)
        else:
            result = update_piece(studio, data, draft["baseline"])
    except BunzaiError as error:
        if error.code == "occupied":
            current = _current_revision(studio, target)
            return receipt("stale", op=mode, target=target, reason="occupied", revision=current,
                           message=f"{target['kind']}/{target['id']} already exists; nothing was written")
        if error.code == "stale":
            current = error.details.get("current")
            why = "missing" if current is None else "changed"
            return receipt("stale", op=mode, target=target, reason=why, revision=current,
                           message=_stale_message(target, why))
        raise
    return receipt("applied", op=mode, target=target, revision=result.revision, seq=result.seq,
                   path=_relative(studio, result.path))


def discard(doc: dict) -> dict:
    draft = parse_draft(doc)
    return receipt("discarded", op=draft["mode"], target=draft["target"], reason="declined",
                   message="the draft was not applied")


def _current_revision(studio, target: dict) -> str | None:
    from bunzai.store.pieces import try_read

    stored = try_read(studio, target["kind"], target["id"])
    return stored.revision if stored else None


def _stale_message(target: dict, why: str) -> str:
    ref = f"{target['kind']}/{target['id']}"
    if why == "missing":
        return f"{ref} no longer exists; nothing was written"
    return f"{ref} changed since the draft was made; nothing was written (make the draft again)"


def _relative(studio, path) -> str:
    return path.relative_to(studio.root).as_posix()
