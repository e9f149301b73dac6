"""lorebook.entries.duplicate: copy an entry under a new uid, right after it."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.contract import Capability, Preview
from bunzai.capabilities.lorebook.entries import EntrySelector, label, make_room, next_uid, select_entry


class DuplicateInput(EntrySelector):
    title: str | None = Field(default=None, description="Title of the copy; default: the original's title + ' (copy)'.")
    enabled: bool | None = Field(default=None, description="Whether the copy is on; default: as the original.")


def preview(piece, inp: DuplicateInput) -> Preview:
    entries = list(piece.body.entries)
    i = select_entry(entries, inp.uid, inp.index)
    source = entries[i]
    title = inp.title if inp.title is not None else (f"{source.title} (copy)" if source.title else "")
    update = {"uid": next_uid(entries), "title": title}
    if inp.enabled is not None:
        update["enabled"] = inp.enabled
    if source.display_index is not None:
        update["display_index"] = source.display_index + 1
        entries = make_room(entries, source.display_index + 1)
    copy = source.model_copy(update=update, deep=True)
    entries.insert(i + 1, copy)
    warnings = []
    if copy.enabled and copy.keys == source.keys and source.enabled:
        warnings.append(f"the copy {label(copy)} has the same keys as {label(source)}: both activate together")
    body = piece.body.model_copy(update={"entries": entries})
    return Preview(piece.model_copy(update={"body": body}), warnings=warnings)


CAPABILITY = Capability(
    id="lorebook.entries.duplicate",
    kind="lorebook",
    area="entries",
    action="duplicate",
    summary="Copy a lorebook entry under a new uid, placed right after it.",
    aliases=("copy entry", "clone entry"),
    input_model=DuplicateInput,
    preview=preview,
)
