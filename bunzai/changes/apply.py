"""The apply door: the only place a draft becomes a stored piece.

It re-validates the proposed piece, stores the media the draft carries, compares the
stored revision with the draft's baseline under the per-path lock (in the store), saves
once, and the store re-reads and verifies. Drafts that share a `group` (a card and its
book) are applied all-or-none. Every outcome is a receipt; nothing is written unless the
receipt says applied (media are content-addressed and immutable, so storing them first
changes no piece).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Callable

from bunzai.changes.draft import parse_draft
from bunzai.changes.receipts import receipt
from bunzai.errors import BunzaiError
from bunzai.validate import validate_piece


def apply_batch(studio, drafts: list[dict], decide: Callable[[dict], bool] | None = None) -> list[dict]:
    """Apply drafts in order, groups all-or-none; `decide` asks a person about each draft."""
    receipts: list[dict] = []
    for unit in _units(drafts):
        if decide is not None and not all(decide(draft) for draft in unit):
            receipts += [discard(draft) for draft in unit]
        elif len(unit) == 1:
            receipts.append(apply_draft(studio, unit[0]))
        else:
            receipts += _apply_group(studio, unit)
    return receipts


def _units(drafts: list[dict]) -> list[list[dict]]:
    units: list[list[dict]] = []
    by_group: dict[str, list[dict]] = {}
    for draft in drafts:
        group = draft.get("group")
        if group is None:
            units.append([draft])
        elif group["id"] in by_group:
            by_group[group["id"]].append(draft)
        else:
            by_group[group["id"]] = [draft]
            units.append(by_group[group["id"]])
    return units


def apply_draft(studio, doc: dict) -> dict:
    """Apply one draft; return its receipt. Invalid drafts raise BunzaiError."""
    draft = parse_draft(doc)
    prepared = _prepare(studio, draft)
    if isinstance(prepared, dict) and prepared.get("type") == "bunzai.receipt":
        return prepared
    return _write(studio, draft, prepared)


def discard(doc: dict) -> dict:
    draft = parse_draft(doc)
    return receipt("discarded", op=draft["mode"], target=draft["target"], reason="declined",
                   message="the draft was not applied")


def _prepare(studio, draft: dict):
    """The canonical data to store, or a failed receipt."""
    from bunzai.model import dump_piece

    target, mode = draft["target"], draft["mode"]
    try:
        piece = validate_piece(draft["proposed"])
        _store_attachments(studio, draft.get("attachments", {}))
        _check_assets_present(studio, piece)
    except BunzaiError as error:
        return receipt("failed", op=mode, target=target, reason=error.code, message=error.message)
    return dump_piece(piece)


def _write(studio, draft: dict, data: dict) -> dict:
    from bunzai.store.pieces import create_piece, update_piece

    target, mode = draft["target"], draft["mode"]
    try:
        result = create_piece(studio, data) if mode == "create" else update_piece(studio, data, draft["baseline"])
    except BunzaiError as error:
        if error.code == "occupied":
            return receipt("stale", op=mode, target=target, reason="occupied", revision=_current_revision(studio, target),
                           message=f"{target['kind']}/{target['id']} already exists; nothing was written")
        if error.code == "stale":
            current = error.details.get("current")
            why = "missing" if current is None else "changed"
            return receipt("stale", op=mode, target=target, reason=why, revision=current, message=_stale_message(target, why))
        raise
    return receipt("applied", op=mode, target=target, revision=result.revision, seq=result.seq,
                   path=result.path.relative_to(studio.root).as_posix())


def _apply_group(studio, unit: list[dict]) -> list[dict]:
    """All drafts of a group, or none: check every one first, undo written ones on a late refusal."""
    from bunzai.store.pieces import delete_piece, try_read, update_piece

    drafts = [parse_draft(doc) for doc in unit]
    prepared = [_prepare(studio, draft) for draft in drafts]
    blocked = [i for i, p in enumerate(prepared) if p.get("type") == "bunzai.receipt"]
    for i, draft in enumerate(drafts):
        if i in blocked:
            continue
        stored = try_read(studio, draft["target"]["kind"], draft["target"]["id"])
        current = stored.revision if stored else None
        if draft["mode"] == "create" and stored is not None:
            prepared[i] = receipt("stale", op="create", target=draft["target"], reason="occupied", revision=current,
                                  message=f"{draft['target']['kind']}/{draft['target']['id']} already exists; nothing was written")
            blocked.append(i)
        elif draft["mode"] == "update" and current != draft["baseline"]:
            why = "missing" if current is None else "changed"
            prepared[i] = receipt("stale", op="update", target=draft["target"], reason=why, revision=current,
                                  message=_stale_message(draft["target"], why))
            blocked.append(i)
    if blocked:
        return [prepared[i] if i in blocked else _held_back(draft) for i, draft in enumerate(drafts)]
    done: list[tuple[dict, dict, bytes | None]] = []
    receipts = []
    for draft, data in zip(drafts, prepared):
        before = try_read(studio, draft["target"]["kind"], draft["target"]["id"]) if draft["mode"] == "update" else None
        result = _write(studio, draft, data)
        if result["status"] != "applied":
            for old_draft, old_receipt, old_data in reversed(done):  # undo, newest first
                kind, piece_id = old_draft["target"]["kind"], old_draft["target"]["id"]
                if old_data is None:
                    delete_piece(studio, kind, piece_id, old_receipt["revision"])
                else:
                    update_piece(studio, old_data, old_receipt["revision"])
            return [_held_back(d) for d in drafts[: len(done)]] + [result] + [_held_back(d) for d in drafts[len(done) + 1 :]]
        done.append((draft, result, before.data if before else None))
        receipts.append(result)
    return receipts


def _held_back(draft: dict) -> dict:
    return receipt("stale", op=draft["mode"], target=draft["target"], reason="group",
                   message="another draft of its group was refused, so none of the group was written")


def _store_attachments(studio, attachments: dict) -> None:
    from bunzai.store.assets import put_asset

    for sha, item in attachments.items():
        try:
            data = base64.b64decode(item["base64"], validate=True)
        except (binascii.Error, ValueError):
            raise BunzaiError("invalid_draft", f"attachment {sha[:12]}… is not valid base64") from None
        if hashlib.sha256(data).hexdigest() != sha:
            raise BunzaiError("invalid_draft", f"attachment {sha[:12]}… does not hash to its name")
        put_asset(studio, data, item["ext"], item.get("mime", ""))


def _check_assets_present(studio, piece) -> None:
    refs = list(piece.asset_refs())
    if piece.original is not None:
        refs += list(piece.original.files.values())
    for ref in refs:
        if not studio.asset_path(ref.sha256, ref.ext).is_file():
            raise BunzaiError("not_found", f"asset {ref.sha256[:12]}….{ref.ext} is not in the studio",
                              "import the file that carries it, or attach it to the draft")


def _current_revision(studio, target: dict) -> str | None:
    from bunzai.store.pieces import try_read

    stored = try_read(studio, target["kind"], target["id"])
    return stored.revision if stored else None


def _stale_message(target: dict, why: str) -> str:
    ref = f"{target['kind']}/{target['id']}"
    if why == "missing":
        return f"{ref} no longer exists; nothing was written"
    return f"{ref} changed since the draft was made; nothing was written (make the draft again)"
