"""lorebook.entries.reorder: the entries' editor order (not their prompt insertion order)."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.partial import check_permutation
from bunzai.capabilities.contract import Capability, Preview
from bunzai.capabilities.lorebook.entries import EntrySelector, Uid, select_entry
from bunzai.errors import BunzaiError


class ReorderInput(EntrySelector):
    order: list[Uid] | None = Field(
        default=None, description="Every entry's uid, in the new order. Or use uid/index with `to`."
    )
    to: int | None = Field(default=None, ge=0, description="Move the entry named by uid/index to this position.")


def preview(piece, inp: ReorderInput) -> Preview:
    entries = list(piece.body.entries)
    if inp.order is not None:
        if inp.to is not None or inp.uid is not None or inp.index is not None:
            raise BunzaiError(
                "invalid_input",
                "input field 'order': give either the whole order or one entry and `to`",
                'e.g. "order": [2, 0, 1], or "uid": 2, "to": 0',
            )
        check_permutation(inp.order, [e.uid for e in entries], "input field 'order'")
        by_uid = {str(e.uid): e for e in entries}
        entries = [by_uid[str(uid)] for uid in inp.order]
    else:
        if inp.to is None:
            raise BunzaiError(
                "invalid_input",
                "input field 'to': say where the entry goes (or give the whole `order`)",
                'e.g. "to": 0 moves it to the top',
            )
        entry = entries.pop(select_entry(entries, inp.uid, inp.index))
        entries.insert(min(inp.to, len(entries)), entry)
    # Every entry gets its new position, not only those that had one: SillyTavern's editor lists
    # an entry without a displayIndex at its uid, where the new order would not show.
    entries = [e if e.display_index == i else e.model_copy(update={"display_index": i}) for i, e in enumerate(entries)]
    body = piece.body.model_copy(update={"entries": entries})
    warnings = [
        "this is the editor order; where entries land in the prompt is their `order` field (lorebook.entries.update)"
    ]
    return Preview(piece.model_copy(update={"body": body}), warnings=warnings)


CAPABILITY = Capability(
    id="lorebook.entries.reorder",
    kind="lorebook",
    area="entries",
    action="reorder",
    summary="Reorder a lorebook's entries: give the whole new order, or move one entry to a position.",
    aliases=("move entry", "sort entries", "entry order"),
    input_model=ReorderInput,
    preview=preview,
)
