"""The apply door: the only place a draft becomes a stored piece.

It re-validates the proposed piece, stores the media the draft carries or names (checked
against their hashes), compares the stored revision with the draft's baseline under the
per-path lock (in the store), saves once, and the store re-reads and verifies. Drafts that
share a `group` (a card and its book) are applied all-or-none. Every outcome is a receipt;
nothing is written unless the receipt says applied (media are content-addressed and
immutable, so storing them first changes no piece).

`apply_stream` takes drafts one at a time, so a stream of any length is applied in bounded
memory: each group as soon as all its drafts have arrived. Writes are committed in batch
windows (group commit, `store.batch`): a window's drafts are validated and their bytes
written to temp files as they come; at the window's end one sync makes them durable, each
piece then lands under its lock with its revision check (change-log record first), and one
more sync makes the names and the log durable. A window's receipts are handed out only
after that, so a receipt never says applied for a write that is not durable.

A disk that fails a window's sync ends the writing, never the receipts: every draft gets one.
Failing the first sync (before any piece has its name), each draft of the window is `failed`
with the fault's code; failing the second (each piece already under its name, whole, with its
change record), each `applied` receipt says `durable: false` with a `warning`: the disk did not
confirm it. Every draft after the fault is `failed` too, nothing more written (`_Window.fault`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from bunzai import limits
from bunzai.changes.documents import IDLE
from bunzai.changes.draft import parse_draft
from bunzai.changes.interrupts import shielded
from bunzai.changes.media import SourceReader, splice_plan
from bunzai.changes.receipts import receipt
from bunzai.errors import BunzaiError, from_os_error, settled_hint
from bunzai.model import dump_piece
from bunzai.splice import largest_insertion, part_spans
from bunzai.store.assets import SPLICE_SUFFIX, StagedAsset, has_asset, land_asset, stage_asset, stage_splice
from bunzai.store.batch import Batch
from bunzai.store.changelog import record_session
from bunzai.store.pieces import Staged, delete_piece, land_create, land_update, stage_piece, try_read, update_piece
from bunzai.validate import validate_piece

Decide = Callable[[dict], bool]


def apply_batch(studio, drafts: list[dict], decide: Decide | None = None) -> list[dict]:
    """Apply a list of drafts in order, groups all-or-none; returns every receipt."""
    return list(apply_stream(studio, drafts, decide))


def apply_stream(studio, docs: Iterable[Any], decide: Decide | None = None) -> Iterator[dict]:
    """Apply documents as they arrive; yield one output per input document: a receipt, or the
    document itself when it is an error document (a file an import could not read), or the
    refusal of a document that is not a draft. Outputs come in input order, a batch window
    at a time, each window after its commit.

    `docs` yields parsed documents, BunzaiError for a document that could not be read, and
    `documents.IDLE` when the input paused (the open window is then committed at once).
    """
    record_session()  # a BUNZAI_SESSION that is not a session id is refused before anything is asked or written
    window = _Window(studio)
    try:
        yield from _apply_all(window, docs, decide)
    finally:
        window.batch.close()


def _apply_all(window: _Window, docs: Iterable[Any], decide: Decide | None) -> Iterator[dict]:
    groups = _Groups()
    for doc in docs:
        if doc is IDLE:
            yield from _committed(window, groups)
            continue
        if isinstance(doc, BunzaiError):
            window.hold(doc.to_json())
        elif isinstance(doc, dict) and "error" in doc and "type" not in doc:
            window.hold(doc)  # passed on as it is: an import's word about a file it could not read
        else:
            try:
                draft = parse_draft(doc)
                unit = groups.add(draft) if window.fault is None else None
            except BunzaiError as error:
                window.hold(error.to_json())
                draft = unit = None
            if draft is not None and window.fault is not None:
                window.hold(window.unwritten(draft))  # the disk failed earlier: nothing more is written
            elif unit is not None:
                window.take(unit, decide)
        if window.full():
            yield from _committed(window, groups)
    for unit in groups.incomplete():
        for draft in unit:
            window.hold(_incomplete(draft))
    with shielded():  # Ctrl-C waits for the window's writes and their receipts
        yield from window.commit()


def _committed(window: _Window, groups: _Groups) -> Iterator[dict]:
    """The window's outputs, Ctrl-C held off until they are handed out; when the disk failed its
    sync, the receipts of the drafts read but waiting for the rest of their group too (none of
    them will be written)."""
    with shielded():
        outputs = window.commit()
        if window.fault is not None:
            outputs += [window.unwritten(draft) for unit in groups.incomplete() for draft in unit]
        yield from outputs


class _Groups:
    """Drafts waiting for the rest of their group; a draft without a group is a unit alone."""

    def __init__(self) -> None:
        self.open: dict[str, list[dict]] = {}

    def add(self, draft: dict) -> list[dict] | None:
        group = draft.get("group")
        if group is None:
            return [draft]
        if group["size"] > limits.DRAFT_GROUP_MAX:
            raise BunzaiError(
                "too_large",
                f"group {group['id']} declares {group['size']} drafts; "
                f"apply holds at most {limits.DRAFT_GROUP_MAX} in one group",
                "split the group",
            )
        members = self.open.get(group["id"])
        if members is None:
            if len(self.open) >= limits.APPLY_OPEN_GROUPS_MAX:
                raise BunzaiError(
                    "too_large",
                    f"more than {limits.APPLY_OPEN_GROUPS_MAX} groups are open at once in the stream",
                    "send each group's drafts together, as `bunzai import` does",
                )
            members = self.open[group["id"]] = []
        members.append(draft)
        if len(members) < group["size"]:
            return None
        del self.open[group["id"]]
        return sorted(members, key=lambda d: d["group"]["index"])

    def incomplete(self) -> list[list[dict]]:
        units, self.open = list(self.open.values()), {}
        return units


def _incomplete(draft: dict) -> dict:
    group = draft["group"]
    return receipt(
        "failed",
        op=draft["mode"],
        target=draft["target"],
        reason="group_incomplete",
        message=f"the stream ended before all {group['size']} drafts of group {group['id']} arrived; "
        "none of the group was written",
    )


@dataclass
class _Staged:
    """A draft made ready to land: its piece and new media in temp files, its media refs."""

    draft: dict
    piece: Staged
    media: list[StagedAsset]
    refs: list[tuple[str, str]]  # (sha256, ext) of every asset the piece refers to


class _Window:
    """One batch window: drafts staged as they come (validated, bytes in temp files), then at
    `commit` made durable together, landed unit by unit under their locks, and committed."""

    def __init__(self, studio) -> None:
        self.studio = studio
        self.batch = Batch(studio.root)
        self.reader = SourceReader()
        self.slots: list[dict | list] = []  # outputs, and units (lists of _Staged or receipts)
        self.media: dict[tuple[str, str], StagedAsset] = {}  # staged in this window, by (sha256, ext)
        self.writes = 0
        self.bytes = 0
        self.started = 0.0
        self.fault: OSError | None = None  # the disk failed a sync: nothing more is written

    def hold(self, output: dict) -> None:
        self._note()
        self.slots.append(output)

    def take(self, unit: list[dict], decide: Decide | None) -> None:
        self._note()
        if decide is not None and not all(decide(draft) for draft in unit):
            self.slots.extend(discard(draft) for draft in unit)
            return
        self.slots.append([self._stage(draft) for draft in unit])
        self.writes += len(unit)

    def full(self) -> bool:
        return (
            self.writes >= limits.APPLY_WINDOW_WRITES
            or self.bytes >= limits.APPLY_WINDOW_BYTES
            or bool(self.slots)
            and time.monotonic() - self.started >= limits.APPLY_WINDOW_SECONDS
        )

    def commit(self) -> list[dict]:
        """Land everything staged, commit, and return the window's outputs in order."""
        if not self.slots:
            return []
        outputs: list[dict] = []
        try:
            if self.fault is not None:  # only receipts are held after a fault: nothing to sync
                return [slot for slot in self.slots if isinstance(slot, dict)]
            if not self._synced(self.batch.sync_data):  # no piece of the window has its name
                return [out for slot in self.slots for out in self._unlanded(slot)]
            for slot in self.slots:
                outputs += self._land(slot) if isinstance(slot, list) else [slot]
            if not self._synced(self.batch.commit):  # every applied piece has its name, not confirmed durable
                return [self._unconfirmed(out) for out in outputs]
        finally:
            for staged in self.media.values():
                staged.drop()
            for slot in self.slots:
                for item in slot if isinstance(slot, list) else ():
                    if isinstance(item, _Staged):
                        item.piece.drop()
            self.slots, self.media, self.writes, self.bytes = [], {}, 0, 0
        return outputs

    def _synced(self, sync: Callable[[], None]) -> bool:
        """Run one of the window's syncs; False when the disk failed it (kept as `fault`: an
        environment fault, coded by `from_os_error`; any other OSError is raised as it is)."""
        try:
            sync()
        except OSError as error:
            if from_os_error(error, self.studio.root) is None:
                raise
            self.fault = error
            return False
        return True

    def _fault(self, target: dict) -> BunzaiError:
        """The disk's fault, naming the piece's file (the sync met the studio's whole file system)."""
        return from_os_error(self.fault, self.studio.piece_file(target["kind"], target["id"]), writing=False)

    def unwritten(
        self, draft: dict, why: str = "the disk failed a sync earlier in this apply, which then wrote nothing more"
    ) -> dict:
        """The failed receipt of a draft the failed disk left unwritten, whole: its bytes were in a temp
        file at most (removed), never under its name, and no change record names it."""
        fault = self._fault(draft["target"])
        return receipt(
            "failed",
            op=draft["mode"],
            target=draft["target"],
            reason=fault.code,
            message=f"{fault.message}; nothing was written: {why}",
            hint=fault.hint,
        )

    def _unlanded(self, slot: dict | list) -> list[dict]:
        """The outputs of a slot whose window's first sync failed: a receipt or error as it was,
        and the failed receipt of every draft that was to be written."""
        if isinstance(slot, dict):
            return [slot]
        why = "the disk failed the sync of its bytes, before any piece of its batch window took its name"
        return [item if isinstance(item, dict) else self.unwritten(item.draft, why) for item in slot]

    def _unconfirmed(self, output: dict) -> dict:
        """An applied receipt of a window whose last sync failed: written whole under its name, with
        its change record, but the disk did not confirm either durable. Any other output as it is."""
        if output.get("status") != "applied":
            return output
        fault = self._fault(output["target"])
        ref = f"{output['target']['kind']}/{output['target']['id']}"
        return {
            **output,
            "durable": False,
            "warning": {
                "code": fault.code,
                "message": f"{fault.message}; {ref} was written whole under its name, with its change record "
                f"(seq {output['seq']}), but the disk failed the sync that makes them durable: a power cut may "
                "still undo it",
                "hint": f"{settled_hint(fault.hint)}; `bunzai read {ref}` shows whether it is there",
            },
        }

    def _note(self) -> None:
        if not self.slots:
            self.started = time.monotonic()

    def _stage(self, draft: dict) -> _Staged | dict:
        """The draft's piece and media staged, or its failed receipt."""
        try:
            piece = validate_piece(draft["proposed"])
            attachments = draft.get("attachments", {})
            plan = splice_plan(attachments)
            # The escrow's files not named by place (carried inline: a bunzai.native file's) may
            # still be another attachment with a run put in: those are kept to look in.
            escrowed = {ref.sha256 for ref in piece.original.files.values()} if piece.original is not None else set()
            parts = {part for part, _spans in plan.values()}  # staged before the plan's splices
            escrowed = (escrowed & attachments.keys()) - plan.keys() - parts
            held: dict[str, tuple[StagedAsset, bytes]] | None = {} if escrowed else None
            media = {
                sha256: self._stage_medium(sha256, item, held=held)
                for sha256, item in attachments.items()
                if sha256 not in plan and sha256 not in escrowed
            }
            for sha256, (part, spans) in plan.items():  # after their bases: each is staged with its base
                media[sha256] = self._stage_medium(sha256, attachments[sha256], (media[part], spans))
            for sha256 in escrowed:
                media[sha256] = self._stage_medium(sha256, attachments[sha256], over=held)
            staged = stage_piece(self.studio, dump_piece(piece), self.batch)
        except (BunzaiError, OSError) as error:
            error = _coded(error, self.studio, draft["target"])
            return receipt("failed", op=draft["mode"], target=draft["target"], reason=error.code, message=error.message)
        self.bytes += len(staged.raw)
        refs = [(ref.sha256, ref.ext) for ref in piece.asset_refs()]
        if piece.original is not None:
            refs += [(ref.sha256, ref.ext) for ref in piece.original.files.values()]
        return _Staged(draft, staged, list(media.values()), refs)

    def _stage_medium(
        self,
        sha256: str,
        item: dict,
        splice: tuple[StagedAsset, list[tuple[int, int]]] | None = None,
        *,
        held: dict[str, tuple[StagedAsset, bytes]] | None = None,
        over: dict[str, tuple[StagedAsset, bytes]] | None = None,
    ) -> StagedAsset:
        """`splice`: (the staged part, its spans) where the file is stored as a splice of another
        attachment of the draft (`splice_plan`). `held`: where to keep the bytes of one big
        enough to be a base; `over`: those bases, to store this file as a splice of one it is
        with a run put in (`bunzai.splice.insertion`)."""
        staged = self.media.get((sha256, item["ext"]))
        if staged is None:
            data = self.reader.read(sha256, item)
            ext, mime = item["ext"], item.get("mime", "")
            if splice is None and over:  # held bases are at least ASSET_SPLICE_MIN_BYTES already
                found = largest_insertion(data, {key: base for key, (_, base) in over.items()}, 0)
                if found is not None:
                    key, at = found
                    splice = (over[key][0], part_spans(len(data), len(over[key][1]), at))
            if splice is None:
                staged = stage_asset(self.studio, data, ext, mime, sha256=sha256, batch=self.batch)
            else:
                part, spans = splice
                base = (part.ref["sha256"], part.ref["ext"])
                staged = stage_splice(
                    self.studio,
                    data,
                    ext,
                    mime,
                    sha256=sha256,
                    base=base,
                    spans=spans,
                    staged_base=part,
                    batch=self.batch,
                )
            self.bytes += len(data)
            self.media[(sha256, item["ext"])] = staged
            if held is not None and len(data) >= limits.ASSET_SPLICE_MIN_BYTES:
                held[sha256] = (staged, data)
        elif (
            held is not None
            and not staged.path.name.endswith(SPLICE_SUFFIX)  # a base is a plain file
            and item.get("size", limits.ASSET_SPLICE_MIN_BYTES) >= limits.ASSET_SPLICE_MIN_BYTES
        ):
            # Staged by an earlier draft of the window (the same portrait): read again to look in.
            data = self.reader.read(sha256, item)
            if len(data) >= limits.ASSET_SPLICE_MIN_BYTES:
                held[sha256] = (staged, data)
        return staged

    def _land(self, unit: list) -> list[dict]:
        """Land a unit's drafts all-or-none: check every one first, undo written ones on a late refusal."""
        results: list[dict | None] = [item if isinstance(item, dict) else _precheck(self.studio, item) for item in unit]
        for i, item in enumerate(unit):
            if results[i] is None:
                missing = _missing_media(self.studio, item)
                if missing:
                    results[i] = receipt(
                        "failed",
                        op=item.draft["mode"],
                        target=item.draft["target"],
                        reason="not_found",
                        message=missing,
                    )
        created: set[tuple[str, str]] = set()
        for i, item in enumerate(unit):  # two creates of one piece: refused before either is written
            if results[i] is None and item.draft["mode"] == "create":
                ref = (item.draft["target"]["kind"], item.draft["target"]["id"])
                if ref in created:
                    results[i] = receipt(
                        "stale",
                        op="create",
                        target=item.draft["target"],
                        reason="occupied",
                        message="another draft of its group creates the same piece",
                    )
                created.add(ref)
        if any(result is not None for result in results):
            return [result if result is not None else _held_back(item.draft) for result, item in zip(results, unit)]
        for item in unit:
            for staged in item.media:
                land_asset(staged, self.batch)
        done: list[tuple[dict, dict, dict | None]] = []
        for index, item in enumerate(unit):
            draft = item.draft
            before = (
                try_read(self.studio, draft["target"]["kind"], draft["target"]["id"])
                if draft["mode"] == "update"
                else None
            )
            result = _land_piece(self.studio, item, self.batch)
            if result["status"] != "applied":
                kept = _undo(self.studio, done)
                return (
                    [kept.get(id(d)) or _held_back(d) for d, _, _ in done]
                    + [result]
                    + [_held_back(other.draft) for other in unit[index + 1 :]]
                )
            done.append((draft, result, before.data if before else None))
        return [result for _, result, _ in done]


def apply_draft(studio, doc: dict) -> dict:
    """Apply one draft now; return its receipt. Invalid drafts raise BunzaiError."""
    return apply_batch(studio, [parse_draft(doc)])[0]


def discard(doc: dict) -> dict:
    draft = parse_draft(doc)
    return receipt(
        "discarded", op=draft["mode"], target=draft["target"], reason="declined", message="the draft was not applied"
    )


def _precheck(studio, item: _Staged) -> dict | None:
    """A stale receipt when the draft's target is not where its mode expects it, else None.
    (The store checks again under the lock; this lets a group refuse before writing any.)"""
    draft = item.draft
    target = draft["target"]
    if draft["mode"] == "create" and not os.path.lexists(item.piece.path):
        return None  # the common case of an import, answered with a stat
    current = _current_revision(studio, target)
    if draft["mode"] == "create" and current is not None:
        return _occupied(draft, current)
    if draft["mode"] == "update" and current != draft["baseline"]:
        why = "missing" if current is None else "changed"
        return receipt(
            "stale", op="update", target=target, reason=why, revision=current, message=_stale_message(target, why)
        )
    return None


def _source(draft: dict) -> dict:
    """{"source": the file an imported draft was read from} for a receipt that refuses it, or {}:
    the piece's `original.source` (its path in a SillyTavern user folder), else the file named by
    the draft's import operation (a card's book has no `original.source` of its own); not stdin."""
    proposed = draft.get("proposed")
    original = proposed.get("original") if isinstance(proposed, dict) else None
    source = original.get("source") if isinstance(original, dict) else None
    if isinstance(source, str) and source:
        return {"source": source}
    for operation in draft.get("operations") or ():
        given = operation.get("input") if isinstance(operation, dict) and operation.get("op") == "import" else None
        file = given.get("file") if isinstance(given, dict) else None
        if isinstance(file, str) and file and file != "-":
            return {"source": file}
    return {}


def _occupied(draft: dict, current: str | None) -> dict:
    """The receipt of a create onto a taken id. It names the file the piece was imported from
    (two cards of a library with one name meet here), and how to keep both."""
    target = draft["target"]
    return receipt(
        "stale",
        op=draft["mode"],
        target=target,
        reason="occupied",
        revision=current,
        message=f"{target['kind']}/{target['id']} already exists; nothing was written",
        hint=_occupied_hint(draft),
        **_source(draft),
    )


def _occupied_hint(draft: dict) -> str:
    """What keeps both, or either, of the pieces: apply has no --on-conflict, the draft's maker may."""
    operations = draft.get("operations") or ()
    if any(isinstance(op, dict) and op.get("op") == "import" for op in operations):
        return (
            "the id is taken and apply never writes over a piece: import the file again with --on-conflict "
            "suffix to keep both (the next free -2, -3), --id to name this one (one file), or --on-conflict "
            "skip to leave it out; to replace the stored piece, bury it and apply this draft again"
        )
    return (
        "the id is taken and apply never writes over a piece: make the draft again under another id "
        "(`bunzai create --id`, `bunzai duplicate REF NEW_ID`) to keep both; to change the stored piece, "
        "make an update draft (`bunzai cap run`); to replace it, bury it and apply this draft again"
    )


def _missing_media(studio, item: _Staged) -> str:
    """Why the piece cannot be stored for want of media (neither in the studio nor carried), or ''."""
    carried = {staged.ref["sha256"] for staged in item.media}
    for sha256, ext in item.refs:
        if sha256 not in carried and not has_asset(studio, sha256, ext):
            return f"asset {sha256[:12]}….{ext} is not in the studio; import the file that carries it, or attach it"
    return ""


def _land_piece(studio, item: _Staged, batch: Batch) -> dict:
    draft = item.draft
    target, mode = draft["target"], draft["mode"]
    try:
        if mode == "create":
            result = land_create(studio, item.piece, batch)
        else:
            result = land_update(studio, item.piece, draft["baseline"], batch)
    except (BunzaiError, OSError) as error:
        error = _coded(error, studio, target)
        if error.code == "occupied":
            return _occupied(draft, _current_revision(studio, target))
        if error.code == "stale":
            current = error.details.get("current")
            why = "missing" if current is None else "changed"
            return receipt(
                "stale", op=mode, target=target, reason=why, revision=current, message=_stale_message(target, why)
            )
        return receipt("failed", op=mode, target=target, reason=error.code, message=error.message)
    return receipt(
        "applied",
        op=mode,
        target=target,
        revision=result.revision,
        seq=result.seq,
        path=result.path.relative_to(studio.root).as_posix(),
    )


def _coded(error: BunzaiError | OSError, studio, target: dict) -> BunzaiError:
    """A BunzaiError as it is; an environment fault (read-only, full disk) as its coded refusal,
    naming the piece's file: not the temp file, log or lock the system refused."""
    if isinstance(error, BunzaiError):
        return error
    # a piece is written to a temp file and named whole: a failed write leaves nothing half-written
    coded = from_os_error(error, studio.piece_file(target["kind"], target["id"]), writing=True)
    if coded is None:
        raise error
    return coded


def _undo(studio, done: list[tuple[dict, dict, dict | None]]) -> dict[int, dict]:
    """Put back the pieces a group wrote before one of its drafts was refused, newest first. A piece
    that could not be put back (a failing disk, a writer that changed it since) and is still as
    written keeps its applied receipt, with a `warning` saying so; returned by id() of its draft."""
    kept: dict[int, dict] = {}
    for draft, written, before in reversed(done):
        kind, piece_id = draft["target"]["kind"], draft["target"]["id"]
        try:
            if before is None:
                delete_piece(studio, kind, piece_id, written["revision"])
            else:
                update_piece(studio, before, written["revision"])
        except (BunzaiError, OSError) as error:
            if _current_revision(studio, draft["target"]) == written["revision"]:
                coded = _coded(error, studio, draft["target"])
                kept[id(draft)] = {
                    **written,
                    "warning": {
                        "code": coded.code,
                        "message": f"another draft of its group was refused, and {kind}/{piece_id} could not be "
                        f"taken back ({coded.message}): it stays written",
                        "hint": coded.hint,
                    },
                }
    return kept


def _held_back(draft: dict) -> dict:
    return receipt(
        "stale",
        op=draft["mode"],
        target=draft["target"],
        reason="group",
        message="another draft of its group was refused, so none of the group was written",
        **_source(draft),
    )


def _current_revision(studio, target: dict) -> str | None:
    stored = try_read(studio, target["kind"], target["id"])
    return stored.revision if stored else None


def _stale_message(target: dict, why: str) -> str:
    ref = f"{target['kind']}/{target['id']}"
    if why == "missing":
        return f"{ref} no longer exists; nothing was written"
    return f"{ref} changed since the draft was made; nothing was written (make the draft again)"
