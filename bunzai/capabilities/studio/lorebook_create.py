"""studio.lorebook.create: a new lorebook with its entries (literal or regex keys, activation, placement)."""

from __future__ import annotations

from bunzai.capabilities.common.create_inputs import create_input_model
from bunzai.capabilities.common.create_preview import create_preview
from bunzai.capabilities.common.lore_entries import entry_warnings, fill_uids
from bunzai.capabilities.contract import Capability

LorebookCreateInput = create_input_model(
    "lorebook",
    "LorebookCreateInput",
    "A new lorebook: `name`, an optional `id`, a description, scan settings and entries. An entry's keys are "
    "strings (literal) or {text, regex: true, flags} (a JavaScript regex, stored, never run); entries without a "
    "uid get the lowest free ones.",
)


def complete_book(body: dict) -> list[str]:
    entries = body.get("entries", [])
    fill_uids(entries)
    return entry_warnings(entries)


CAPABILITY = Capability(
    id="studio.lorebook.create",
    kind="lorebook",
    domain="studio",
    mode="create",
    area="lorebook",
    action="create",
    summary="Create a lorebook with entries: literal or regex keys, activation, position, depth, role, order.",
    aliases=("new lorebook", "new world info", "create lorebook", "new world", "make lorebook"),
    input_model=LorebookCreateInput,
    preview=create_preview("lorebook", complete_book),
)
