"""The apply door: the only place a draft becomes a stored piece.

It re-validates the proposed piece, stores the media the draft carries or names (checked
against their hashes), compares the stored revision with the draft's baseline under the
per-path lock (in the store), saves once, and the store re-reads and verifies. Drafts that
share a `group` (a card and its book) are applied all-or-none. Every outcome is a receipt;
nothing is written unless the receipt says applied (media are content-addressed and
immutable, so storing them first changes no piece).

`apply_stream` takes drafts one at a time, so a stream of any length is applied in bounded
memory: each group as soon as all its drafts have arrived. Writes are committed in batch
windows (group commit): every file is fsynced as it is written, and the folders' and the
change log's fsyncs happen once per window; a window's receipts are handed out only after
its commit, so a receipt never says applied for a write that is not durable.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from bunzai import limits
from bunzai.changes.draft import parse_draft
from bunzai.changes.media import SourceReader
from bunzai.changes.receipts import receipt
from bunzai.errors import BunzaiError
from bunzai.model import dump_piece
from bunzai.store.assets import put_asset
from bunzai.store.atomic import Batch
from bunzai.store.pieces import create_piece, delete_piece, try_read, update_piece
from bunzai.validate import validate_piece

Decide = Callable[[dict], bool]


def apply_batch(studio, drafts: list[dict], decide: Decide | None = None) -> list[dict]:
    """Apply a list of drafts in order, groups all-or-none; returns every receipt."""
    return list(apply_stream(studio, drafts, decide))


def apply_stream(studio, docs: Iterable[Any], decide: Decide | None = None, *,
                 idle: Callable[[], bool] | None = None) -> Iterator[dict]:
    """Apply documents as they arrive; yield one output per input document, in order of
    completion: a receipt, or the document itself when it is an error document (a file an
    import could not read) or a refusal of a document that is not a draft.

    `docs` yields parsed documents, or BunzaiError for a document that could not be read.
    `idle()`, when given, tells whether the source would block: the open window is then
    committed first, so receipts are never held back waiting for more input.
    """
    window = _Window(studio)
    groups = _Groups()
    for doc in docs:
        if isinstance(doc, BunzaiError):
            window.hold([doc.to_json()])
        elif isinstance(doc, dict) and "error" in doc and "type" not in doc:
            window.hold([doc])  # passed on as it is: an import's word about a file it could not read
        else:
            try:
                draft = parse_draft(doc)
            except BunzaiError as error:
                window.hold([error.to_json()])
            else:
                try:
                    unit = groups.add(draft)
                except BunzaiError as error:
                    window.hold([error.to_json()])
                    unit = None
                if unit is not None:
                    window.apply_unit(unit, decide)
        if window.full() or (idle is not None and window.pending() and idle()):
            yield from window.commit()
    for unit in groups.incomplete():
        window.hold([_incomplete(draft) for draft in unit])
    yield from window.commit()


class _Groups:
    """Drafts waiting for the rest of their group; a draft without a group is a unit alone."""

    def __init__(self) -> None:
        self.open: dict[str, list[dict]] = {}

    def add(self, draft: dict) -> list[dict] | None:
        group = draft.get("group")
        if group is None:
            return [draft]
        if group["size"] > limits.DRAFT_GROUP_MAX:
            raise BunzaiError("too_large", f"group {group['id']} declares {group['size']} drafts; "
                              f"apply holds at most {limits.DRAFT_GROUP_MAX} in one group", "split the group")
        members = self.open.get(group["id"])
        if members is None:
            if len(self.open) >= limits.APPLY_OPEN_GROUPS_MAX:
                raise BunzaiError("too_large", f"more than {limits.APPLY_OPEN_GROUPS_MAX} groups are open at once "
                                  "in the stream", "send each group's drafts together, as `bunzai import` does")
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
    return receipt("failed", op=draft["mode"], target=draft["target"], reason="group_incomplete",
                   message=f"the stream ended before all {group['size']} drafts of group {group['id']} arrived; "
                           "none of the group was written")


class _Window:
    """Outputs waiting for their batch's commit, and the batch itself."""

    def __init__(self, studio) -> None:
        self.studio = studio
        self.batch = Batch()
        self.reader = SourceReader()
        self.outputs: list[dict] = []
        self.writes = 0
        self.started = 0.0

    def hold(self, outputs: list[dict]) -> None:
        if not self.outputs:
            self.started = time.monotonic()
        self.outputs += outputs

    def pending(self) -> bool:
        return bool(self.outputs)

    def full(self) -> bool:
        return (self.writes >= limits.APPLY_WINDOW_WRITES
                or bool(self.outputs) and time.monotonic() - self.started >= limits.APPLY_WINDOW_SECONDS)

    def apply_unit(self, unit: list[dict], decide: Decide | None) -> None:
        if decide is not None and not all(decide(draft) for draft in unit):
            self.hold([discard(draft) for draft in unit])
        elif len(unit) == 1:
            self.hold([self._apply_one(unit[0])])
        else:
            self.hold(self._apply_group(unit))

    def commit(self) -> list[dict]:
        self.batch.commit()
        outputs, self.outputs, self.writes = self.outputs, [], 0
        return outputs

    def _apply_one(self, draft: dict) -> dict:
        prepared = _prepare(self.studio, draft, self.reader, self.batch)
        if prepared.get("type") == "bunzai.receipt":
            return prepared
        return self._write(draft, prepared)

    def _write(self, draft: dict, data: dict) -> dict:
        self.writes += 1
        return _write(self.studio, draft, data, self.batch)

    def _apply_group(self, drafts: list[dict]) -> list[dict]:
        """All drafts of a group, or none: check every one first, undo written ones on a late refusal."""
        prepared = [_prepare(self.studio, draft, self.reader, self.batch) for draft in drafts]
        blocked = [i for i, p in enumerate(prepared) if p.get("type") == "bunzai.receipt"]
        for i, draft in enumerate(drafts):
            if i not in blocked:
                refusal = _precheck(self.studio, draft)
                if refusal is not None:
                    prepared[i] = refusal
                    blocked.append(i)
        if blocked:
            return [prepared[i] if i in blocked else _held_back(draft) for i, draft in enumerate(drafts)]
        done: list[tuple[dict, dict, dict | None]] = []
        for draft, data in zip(drafts, prepared):
            before = try_read(self.studio, draft["target"]["kind"], draft["target"]["id"]) \
                if draft["mode"] == "update" else None
            result = self._write(draft, data)
            if result["status"] != "applied":
                _undo(self.studio, done)
                return ([_held_back(d) for d in drafts[: len(done)]] + [result]
                        + [_held_back(d) for d in drafts[len(done) + 1:]])
            done.append((draft, result, before.data if before else None))
        return [result for _, result, _ in done]


def apply_draft(studio, doc: dict) -> dict:
    """Apply one draft now; return its receipt. Invalid drafts raise BunzaiError."""
    return apply_batch(studio, [parse_draft(doc)])[0]


def discard(doc: dict) -> dict:
    draft = parse_draft(doc)
    return receipt("discarded", op=draft["mode"], target=draft["target"], reason="declined",
                   message="the draft was not applied")


def _prepare(studio, draft: dict, reader: SourceReader, batch: Batch) -> dict:
    """The canonical data to store, or a failed receipt."""
    target, mode = draft["target"], draft["mode"]
    try:
        piece = validate_piece(draft["proposed"])
        for sha256, item in draft.get("attachments", {}).items():
            put_asset(studio, reader.read(sha256, item), item["ext"], item.get("mime", ""), sha256=sha256, batch=batch)
        _check_assets_present(studio, piece)
    except BunzaiError as error:
        return receipt("failed", op=mode, target=target, reason=error.code, message=error.message)
    return dump_piece(piece)


def _precheck(studio, draft: dict) -> dict | None:
    """A stale receipt when the draft's target is not where its mode expects it, else None."""
    target = draft["target"]
    current = _current_revision(studio, target)
    if draft["mode"] == "create" and current is not None:
        return receipt("stale", op="create", target=target, reason="occupied", revision=current,
                       message=f"{target['kind']}/{target['id']} already exists; nothing was written")
    if draft["mode"] == "update" and current != draft["baseline"]:
        why = "missing" if current is None else "changed"
        return receipt("stale", op="update", target=target, reason=why, revision=current,
                       message=_stale_message(target, why))
    return None


def _write(studio, draft: dict, data: dict, batch: Batch) -> dict:
    target, mode = draft["target"], draft["mode"]
    try:
        if mode == "create":
            result = create_piece(studio, data, batch)
        else:
            result = update_piece(studio, data, draft["baseline"], batch)
    except BunzaiError as error:
        if error.code == "occupied":
            return receipt("stale", op=mode, target=target, reason="occupied", revision=_current_revision(studio, target),
                           message=f"{target['kind']}/{target['id']} already exists; nothing was written")
        if error.code == "stale":
            current = error.details.get("current")
            why = "missing" if current is None else "changed"
            return receipt("stale", op=mode, target=target, reason=why, revision=current, message=_stale_message(target, why))
        return receipt("failed", op=mode, target=target, reason=error.code, message=error.message)
    return receipt("applied", op=mode, target=target, revision=result.revision, seq=result.seq,
                   path=result.path.relative_to(studio.root).as_posix())


def _undo(studio, done: list[tuple[dict, dict, dict | None]]) -> None:
    """Put back the pieces a group wrote before one of its drafts was refused, newest first."""
    for draft, written, before in reversed(done):
        kind, piece_id = draft["target"]["kind"], draft["target"]["id"]
        if before is None:
            delete_piece(studio, kind, piece_id, written["revision"])
        else:
            update_piece(studio, before, written["revision"])


def _held_back(draft: dict) -> dict:
    return receipt("stale", op=draft["mode"], target=draft["target"], reason="group",
                   message="another draft of its group was refused, so none of the group was written")


def _check_assets_present(studio, piece) -> None:
    refs = list(piece.asset_refs())
    if piece.original is not None:
        refs += list(piece.original.files.values())
    for ref in refs:
        if not studio.asset_path(ref.sha256, ref.ext).is_file():
            raise BunzaiError("not_found", f"asset {ref.sha256[:12]}….{ref.ext} is not in the studio",
                              "import the file that carries it, or attach it to the draft")


def _current_revision(studio, target: dict) -> str | None:
    stored = try_read(studio, target["kind"], target["id"])
    return stored.revision if stored else None


def _stale_message(target: dict, why: str) -> str:
    ref = f"{target['kind']}/{target['id']}"
    if why == "missing":
        return f"{ref} no longer exists; nothing was written"
    return f"{ref} changed since the draft was made; nothing was written (make the draft again)"
