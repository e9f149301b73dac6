"""Composing an operation onto a draft: one more step over the same immutable baseline.

The operation starts from the draft's proposed piece; its record (input, warnings, impact)
is appended to the draft's operations; the draft's changes are recomputed against the
ORIGINAL baseline piece, which is re-read from the studio and must still be at the draft's
baseline revision (else `stale`: composing onto a draft whose piece moved on would build
a diff against the wrong piece). A create draft has no baseline: its changes are the
creation rows. Aggregate warnings are the operations' warnings in order. The draft's
impact is computed again, from the baseline piece (nothing, for a create) to the new
proposed one, since a later step may move, undo or take out what an earlier step's rows
name; each step's own rows stay in its record.
"""

from __future__ import annotations

from typing import Any

from bunzai.capabilities.embedded import preview_embedded
from bunzai.capabilities.runner import preview_step, read_result
from bunzai.changes.draft import new_draft, parse_draft
from bunzai.convert import platform_impact
from bunzai.errors import BunzaiError
from bunzai.limits import DRAFT_MAX_OPERATIONS
from bunzai.model import dump_piece
from bunzai.validate import validate_piece


def compose_capability(cap, draft: dict, raw_input: Any, stored=None, loader=None, *, embedded: bool = False) -> dict:
    """The draft with `cap` applied on top. `stored` is the studio's piece for an update draft;
    `embedded`: a lorebook capability on the draft's character's embedded book."""
    draft = parse_draft(draft)
    if cap.mode == "create":
        raise BunzaiError(
            "invalid_input", f"{cap.id} starts a new draft; it cannot compose onto one", "run it without --draft"
        )
    target = draft["target"]
    before = None
    if draft["mode"] == "update":
        current = None if stored is None else stored.revision
        if current != draft["baseline"]:
            ref = f"{target['kind']}/{target['id']}"
            why = "no longer exists" if current is None else "changed since the draft was made"
            raise BunzaiError(
                "stale",
                f"{ref} {why}; the draft's baseline is gone, so nothing can compose onto it",
                "make the draft again from the stored piece",
                expected=draft["baseline"],
                current=current,
            )
        # compared as a one-step draft compares it: validated, so the file's record of its
        # escrow's key order (`original.key_order`) is back in the document, not a row of its own
        before = dump_piece(validate_piece(stored.data))
    if embedded:
        proposed, record, result = preview_embedded(cap, draft["proposed"], raw_input, loader=loader)
    else:
        proposed, record, result = preview_step(cap, draft["proposed"], raw_input, loader=loader)
    if cap.effect == "read":
        return read_result(cap, proposed, record, result)
    operations = list(draft.get("operations", [])) + [record]
    if len(operations) > DRAFT_MAX_OPERATIONS:
        raise BunzaiError(
            "too_large",
            f"a draft holds at most {DRAFT_MAX_OPERATIONS} operations",
            "apply this draft, then start a new one",
        )
    attachments = dict(draft.get("attachments") or {}) | record.pop("attachments", {})
    # The draft's impact is the whole draft's, computed again from the stored piece (or, for a
    # create, from nothing) to the proposed one: each step's rows name the places of its own
    # step, which a later step may move, undo or take out.
    impact = platform_impact(before, proposed, attachments)
    return new_draft(
        mode=draft["mode"],
        proposed=proposed,
        operations=operations,
        baseline=draft["baseline"],
        before=before,
        impact=impact,
        attachments=attachments,
        group=draft.get("group"),
    )
