"""lorebook.entries.enable: switch entries on or off."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.contract import Capability, Preview
from bunzai.capabilities.lorebook.entries import Uid, positions_of
from bunzai.errors import BunzaiError
from bunzai.model.base import Model


class EnableInput(Model):
    uids: list[Uid] = Field(default_factory=list, description="uids of the entries to switch.")
    all: bool = Field(default=False, description="Switch every entry of the book (instead of `uids`).")
    enabled: bool = Field(default=True, description="true switches them on, false off.")


def preview(piece, inp: EnableInput) -> Preview:
    entries = list(piece.body.entries)
    if inp.all == bool(inp.uids):
        raise BunzaiError(
            "invalid_input",
            "input fields 'uids' / 'all': name the entries, or set all (not both)",
            'e.g. "uids": [3, 7], or "all": true',
        )
    chosen = set(range(len(entries))) if inp.all else set(positions_of(entries, inp.uids))
    entries = [e.model_copy(update={"enabled": inp.enabled}) if i in chosen else e for i, e in enumerate(entries)]
    warnings = []
    if entries and not any(e.enabled for e in entries):
        warnings.append("every entry of the book is now disabled: the book inserts nothing")
    body = piece.body.model_copy(update={"entries": entries})
    return Preview(piece.model_copy(update={"body": body}), warnings=warnings)


CAPABILITY = Capability(
    id="lorebook.entries.enable",
    kind="lorebook",
    area="entries",
    action="enable",
    summary="Switch lorebook entries on or off, by uid or all at once.",
    aliases=("disable entry", "enable entry", "turn off entry", "toggle entry", "mute entry"),
    input_model=EnableInput,
    preview=preview,
)
