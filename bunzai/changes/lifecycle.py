"""Lifecycle writes that are not edits: delete, bury, restore. Each answers with a receipt."""

from __future__ import annotations

from bunzai import limits
from bunzai.changes.receipts import receipt, refusal
from bunzai.errors import BunzaiError, settled_hint
from bunzai.query.links import LINKING_KINDS
from bunzai.store.changelog import record_session
from bunzai.store.faults import Unsettled
from bunzai.store.graveyard import bury_piece, restore_entry as restore
from bunzai.store.pieces import delete_piece, list_stored, parse_stored, read_raw, ref_of, resolve_ref

# Which kinds' pieces can name a piece of each kind (a character's links, its variants'
# included, a persona's, a promptbook phase's preset, cards and regex sets; `imports.links_of`
# reads the same): removing one may leave them pointing at nothing.
LINKERS = LINKING_KINDS
REFERENCED_KINDS = tuple(LINKERS)


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


def referrers(studio, kind: str, piece_id: str) -> tuple[list[dict], list[dict]]:
    """The stored pieces that link to kind/piece_id, sorted, and those of the linking kinds
    that could not be read (so were not checked). Read off the studio index (brought up to
    date first, as `list` does) where the studio keeps one; else, or where it fails, one pass
    over the linking kinds' files (building an index for one question would cost more)."""
    from bunzai.query import index  # lazy, as every reader of the index imports it

    if kind in LINKERS and index.index_kept(studio):
        try:
            return _indexed_referrers(studio, kind, piece_id)
        except (BunzaiError, OSError, index.sqlite3.Error):
            pass  # the file pass answers, or says why it cannot
    return _file_referrers(studio, kind, piece_id)


def _indexed_referrers(studio, kind: str, piece_id: str) -> tuple[list[dict], list[dict]]:
    from bunzai.query.index import linking_pieces

    rows, damaged = linking_pieces(studio, LINKERS[kind], kind, piece_id)
    return [{"kind": row["kind"], "id": row["id"]} for row in rows], unread_referrers(studio, damaged, piece_id)


def unread_referrers(studio, damaged: list[dict], piece_id: str) -> list[dict]:
    """(kind, id) of those of the `damaged` piece files (as `index.linking_pieces` gives them) that
    may link to `piece_id`: they may name it, or cannot be read at all."""
    needle = _needle(piece_id)
    return [{"kind": row["kind"], "id": row["id"]} for row in damaged if _unread(studio, row, needle)]


def _unread(studio, damaged: dict, needle: bytes) -> bool:
    """Whether a damaged file is one the file pass would name as not checked: it may name the
    piece, or it cannot be read at all."""
    try:
        return bool(_may_name(studio, damaged["kind"], damaged["id"], needle))
    except (BunzaiError, OSError):
        return True


def _needle(piece_id: str) -> bytes:
    return f'"{piece_id}"'.encode()  # a safe id is its own JSON string


def _may_name(studio, linking: str, other: str, needle: bytes) -> bytes | bool | None:
    """The bytes of linking/other where they may name the piece; False where they cannot (they
    hold neither the id as a JSON string nor a `\\u00` escape: an id is ASCII, only such an
    escape could spell it otherwise), None where the file is gone. Raises what reading raises."""
    raw = read_raw(studio.piece_file(linking, other), what=ref_of(linking, other))
    if raw is None:
        return None
    return raw if needle in raw or b"\\u00" in raw else False


def _file_referrers(studio, kind: str, piece_id: str) -> tuple[list[dict], list[dict]]:
    """`referrers` by one pass over the linking kinds' files, each read once; a file that
    cannot name the id (`_may_name`) is not parsed."""
    # imported here: its readers cost 120 ms, and only a piece that names the id is parsed
    from bunzai.changes.imports import links_of

    needle = _needle(piece_id)
    found, unread = [], []
    for linking in LINKERS.get(kind, ()):
        for _, other in list_stored(studio, linking):
            try:
                raw = _may_name(studio, linking, other, needle)
                if not raw:
                    continue  # gone since listed, or cannot name the piece
                doc = parse_stored(linking, other, studio.piece_file(linking, other), raw).data
                links = links_of(doc)
            except (BunzaiError, OSError):
                unread.append({"kind": linking, "id": other})
                continue
            if (kind, piece_id) in links:
                found.append({"kind": linking, "id": other})
    return found, unread


def _unchecked(kind: str) -> dict:
    """The receipt's words where the pieces that may point at the removed one were not read."""
    if kind not in REFERENCED_KINDS:
        return {}
    return {
        "references_checked": False,
        "note": f"pieces that refer to this {kind} were not checked; they may now point at nothing",
    }


def _named(refs: list[dict]) -> str:
    shown = ", ".join(ref_of(ref["kind"], ref["id"]) for ref in refs[: limits.REFERRERS_MAX])
    more = len(refs) - limits.REFERRERS_MAX
    return f"{shown} and {more} more" if more > 0 else shown


def _references(studio, kind: str, piece_id: str) -> dict:
    """What a receipt says of the pieces still pointing at the removed kind/piece_id: nothing
    for a kind no piece links to; else `references_checked` (every linking piece was read),
    `referrers` (the first REFERRERS_MAX, sorted), `referrers_count`, and a note naming them."""
    if kind not in REFERENCED_KINDS:
        return {}
    try:
        found, unread = referrers(studio, kind, piece_id)
    except (BunzaiError, OSError):  # the studio cannot be walked (a runaway or unreadable folder): the write stands
        return _unchecked(kind)
    notes = []
    if found:
        verb = "piece still points" if len(found) == 1 else "pieces still point"
        notes.append(f"{len(found)} {verb} at this {kind}: {_named(found)}")
    if unread:
        pieces = "piece" if len(unread) == 1 else "pieces"
        notes.append(f"{len(unread)} {pieces} that could not be read may point at it: {_named(unread)}")
    return {
        "references_checked": not unread,
        "referrers": found[: limits.REFERRERS_MAX],
        "referrers_count": len(found),
        **({"note": "; ".join(notes)} if notes else {}),
    }


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
    unsettled = None
    try:
        result = delete_piece(studio, kind, piece_id, revision)
    except Unsettled as error:
        if error.landed is None:
            raise
        result, unsettled = error.landed, error
    except BunzaiError as error:
        if error.code in ("stale", "not_found"):
            return _refused("delete", target, error, close)
        raise
    done = receipt(
        "applied",
        op="delete",
        target=target,
        revision=None,
        seq=result.seq,
        deleted_revision=result.revision,
        **_references(studio, kind, piece_id),
    )
    if unsettled is not None:
        piece = ref_of(kind, piece_id)
        done.update(
            _unconfirmed(
                unsettled,
                f"{piece} was deleted, with its change record (seq {result.seq}), but the disk failed the sync "
                "that makes its file's removal durable: a power cut may bring the file back",
                f"`bunzai read {piece}` shows whether it is back",
            )
        )
    return done


def bury_ref(studio, ref: str, revision: str | None, *, check_references: bool = True) -> dict:
    """Move a piece to the graveyard, restorable with `graveyard restore`. A miss or a revision
    mismatch is stale, as for delete. Without `check_references` the receipt says the pieces
    pointing at it were not looked for (a revert burying hundreds of pieces would read the
    linking pieces once per burial)."""
    record_session()
    kind, piece_id, close = _resolve_or_none(studio, ref)
    target = {"kind": kind, "id": piece_id}
    if kind is None:
        return _missing("bury", ref, close)
    unsettled = None
    try:
        buried = bury_piece(studio, kind, piece_id, revision)
    except Unsettled as error:
        if error.landed is None:
            raise
        buried, unsettled = error.landed, error
    except BunzaiError as error:
        if error.code in ("stale", "not_found"):
            return _refused("bury", target, error, close)
        raise
    done = receipt(
        "applied",
        op="bury",
        target=target,
        revision=buried["revision"],
        seq=buried["seq"],
        entry=buried["entry"],
        **(_references(studio, kind, piece_id) if check_references else _unchecked(kind)),
    )
    if unsettled is not None:
        ref = ref_of(kind, piece_id)
        done.update(
            _unconfirmed(
                unsettled,
                f"{ref} was buried as {buried['entry']}, with its change record (seq {buried['seq']}), but the "
                "disk failed the sync that makes its file's removal durable: a power cut may bring the file back "
                "beside its graveyard entry",
                f"`bunzai read {ref}` shows whether it is back",
            )
        )
    return done


def _unconfirmed(unsettled: Unsettled, said: str, look: str) -> dict:
    """What an applied receipt adds when the disk failed the sync of the write's last step (the
    write is whole): `durable: false` and its warning, the fault said of its file and then `said`,
    as `apply`'s receipts say it; `look` tells how to see what a power cut left."""
    warned = unsettled.said_of(unsettled.details["path"], said)
    return {
        "durable": False,
        "warning": {"code": warned.code, "message": warned.message, "hint": f"{settled_hint(warned.hint)}; {look}"},
    }


def restore_entry(studio, entry: str) -> dict:
    """Put a buried piece back under its id; refused when the id was taken since."""
    record_session()
    kind, _, rest = entry.partition("/")
    target = {"kind": kind or None, "id": rest.partition("@")[0] or None}
    unsettled = None
    try:
        result = restore(studio, entry)
    except Unsettled as error:
        if error.landed is None:
            raise
        result, unsettled = error.landed, error
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
    done = receipt(
        "applied",
        op="restore",
        target={"kind": result.kind, "id": result.id},
        revision=result.revision,
        seq=result.seq,
        entry=entry,
        path=result.path.relative_to(studio.root).as_posix(),
    )
    ref = ref_of(result.kind, result.id)
    if unsettled is not None:
        done.update(
            _unconfirmed(
                unsettled,
                f"{ref} was put back under its name, with its change record (seq {result.seq}), but the disk "
                f"failed the sync that makes the removal of its graveyard entry durable: a power cut may bring "
                f"{entry} back to the graveyard",
                "`bunzai graveyard list` shows whether it is there",
            )
        )
    gone = _media_gone(studio, result.path, ref)
    if gone:
        done["missing_media"] = gone
        done["warning"] = _media_warning(ref, gone, done.get("warning"))
    return done


def _media_warning(ref: str, gone: list[dict], warned: dict | None) -> dict:
    """The restore's warning for media it cannot read; added to the disk's (`warned`, when the
    disk failed a sync), whose code stands."""
    said = {
        "code": "not_found",
        "message": f"{ref} is back, but {len(gone)} of the media it names cannot be read: "
        + "; ".join(item["why"] for item in gone),
        "hint": "store them again: apply a draft that carries them, such as an import of the file it was "
        "made from under another id (`--on-conflict suffix`; the same bytes take the same names), then "
        f"delete that copy; until then an export of {ref} that carries them fails, and so does "
        "`bunzai art` for its portrait",
    }
    if warned is None:
        return said
    return {
        "code": warned["code"],
        "message": f"{warned['message']}; and {said['message']}",
        "hint": f"{warned['hint']}; {said['hint']}",
    }


def _media_gone(studio, path, ref: str) -> list[dict]:
    """The media a restored piece names that have no file to be read from (removed by hand, or
    lost with a disk): [{"asset", "why"}]. Nothing when it does not validate (doctor names that)."""
    from bunzai.store.assets import why_unreadable
    from bunzai.store.doctor_assets import piece_media

    refs, _invalid = piece_media(path, ref)
    gone = []
    for sha256, ext in dict.fromkeys(refs):
        why = why_unreadable(studio, sha256, ext)
        if why:
            gone.append({"asset": f"{sha256}.{ext}", "why": why})
    return gone
