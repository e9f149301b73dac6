"""lorebook.entries.update: change some fields of one entry, named by uid or index."""

from __future__ import annotations

from pydantic import BaseModel, Field

from bunzai.capabilities.common.partial import merge_partial
from bunzai.capabilities.contract import Capability, Preview
from bunzai.capabilities.lorebook.entries import EntryPatch, EntrySelector, label, select_entry


class EntryUpdateInput(EntrySelector):
    set: EntryPatch = Field(
        description="The entry fields to change (keys, content, position, depth, role ...); the rest stay."
    )


def preview(piece, inp: EntryUpdateInput) -> Preview:
    entries = list(piece.body.entries)
    i = select_entry(entries, inp.uid, inp.index)
    patch = _merge_nested(entries[i], inp.set.model_dump(mode="json", exclude_unset=True))
    entries[i] = merge_partial(entries[i], patch)
    entry = entries[i]
    warnings = []
    if not entry.keys and not entry.constant and not entry.vectorized and entry.enabled:
        warnings.append(f"entry {label(entry)} has no keys and is not constant: it never activates")
    if entry.position != "at_depth" and ("depth" in patch or "role" in patch):
        warnings.append(
            f"entry {label(entry)}: depth and role only apply at position at_depth (it is {entry.position})"
        )
    if entry.position == "outlet" and not entry.outlet:
        warnings.append(f"entry {label(entry)} goes to an outlet but names none")
    body = piece.body.model_copy(update={"entries": entries})
    return Preview(piece.model_copy(update={"body": body}), warnings=warnings)


def _merge_nested(entry, patch: dict) -> dict:
    # A nested object given in part (`group: {override: true}`) changes only the fields given:
    # the ones left out keep their value, as they do at the top level.
    return {
        key: {**getattr(entry, key).model_dump(mode="json"), **value}
        if isinstance(value, dict) and isinstance(getattr(entry, key), BaseModel)
        else value
        for key, value in patch.items()
    }


CAPABILITY = Capability(
    id="lorebook.entries.update",
    kind="lorebook",
    area="entries",
    action="update",
    summary=(
        "Change one lorebook entry: its keys (literal or regex), content, activation, position, depth, role and more."
    ),
    aliases=("edit entry", "edit world info entry", "entry keys", "keywords", "entry content", "trigger words"),
    input_model=EntryUpdateInput,
    preview=preview,
)
