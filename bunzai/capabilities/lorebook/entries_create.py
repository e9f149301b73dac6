"""lorebook.entries.create: add new entries (literal or regex keys, activation, position ...)."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.contract import Capability, Preview
from bunzai.capabilities.lorebook.entries import NewEntry, label, make_room, next_uid
from bunzai.model.base import Model
from bunzai.model.lorebook import LoreEntry


class CreateEntriesInput(Model):
    entries: list[NewEntry] = Field(
        min_length=1, description="The new entries; keys may be plain strings (literal) or {text, regex, flags}."
    )
    at: int | None = Field(default=None, ge=0, description="Where they go in the list; default: the end.")


def preview(piece, inp: CreateEntriesInput) -> Preview:
    entries = list(piece.body.entries)
    uid = next_uid(entries)
    new = []
    for item in inp.entries:
        data = item.model_dump(mode="json")
        if data["uid"] is None:
            data["uid"] = uid
            uid += 1
        new.append(LoreEntry.model_validate(data))
    at = len(entries) if inp.at is None else min(inp.at, len(entries))
    place = entries[at].display_index if at < len(entries) else None
    if place is not None:  # new entries without a place would be listed by their uid, at the end
        entries = make_room(entries, place, len(new))
        new = [
            e if e.display_index is not None else e.model_copy(update={"display_index": place + n})
            for n, e in enumerate(new)
        ]
    entries[at:at] = new
    warnings = [
        f"new entry {label(e)} has no keys and is not constant: it never activates"
        for e in new
        if not e.keys and not e.constant and not e.vectorized
    ]
    body = piece.body.model_copy(update={"entries": entries})
    return Preview(piece.model_copy(update={"body": body}), warnings=warnings)


CAPABILITY = Capability(
    id="lorebook.entries.create",
    kind="lorebook",
    area="entries",
    action="create",
    summary="Add entries to a lorebook, with literal or regex keys, activation, position, depth and role.",
    aliases=("add entry", "new entry", "add world info entry", "add lore"),
    input_model=CreateEntriesInput,
    preview=preview,
)
