"""lorebook.entries.remove: delete entries from the book, by uid."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.contract import Capability, Preview
from bunzai.capabilities.lorebook.entries import Uid, label, positions_of
from bunzai.model.base import Model


class RemoveInput(Model):
    uids: list[Uid] = Field(min_length=1, description="uids of the entries to remove.")


def preview(piece, inp: RemoveInput) -> Preview:
    entries = list(piece.body.entries)
    drop = set(positions_of(entries, inp.uids))
    kept = [e for i, e in enumerate(entries) if i not in drop]
    warnings = []
    constant = [label(entries[i]) for i in sorted(drop) if entries[i].constant and entries[i].enabled]
    if constant:
        warnings.append(f"removing always-on (constant) entries: {', '.join(constant)}")
    if not kept:
        warnings.append("the book has no entries left")
    body = piece.body.model_copy(update={"entries": kept})
    return Preview(piece.model_copy(update={"body": body}), warnings=warnings)


CAPABILITY = Capability(
    id="lorebook.entries.remove",
    kind="lorebook",
    area="entries",
    action="remove",
    summary="Remove entries from a lorebook, by uid.",
    aliases=("delete entry", "remove world info entry"),
    input_model=RemoveInput,
    preview=preview,
)
