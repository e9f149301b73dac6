"""lorebook.settings.update: the book's name, description and scan settings."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.partial import merge_partial
from bunzai.capabilities.common.patching import given
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class BookSettingsPatch(Model):
    scan_depth: int | None = Field(
        default=None, ge=0, description="Messages scanned for keys; null = platform default."
    )
    token_budget: int | None = Field(
        default=None, ge=0, description="Most tokens the book may insert; null = platform default."
    )
    recursive_scanning: bool | None = Field(
        default=None, description="Inserted content may activate more entries; null = default."
    )
    max_recursion_steps: int | None = Field(
        default=None, ge=0, description="Recursion depth limit, 0 = unlimited; null = default."
    )
    min_activations: int | None = Field(
        default=None, ge=0, description="Keep scanning deeper until this many entries fire; null = default."
    )
    case_sensitive: bool | None = Field(default=None, description="Case-sensitive key match; null = default.")
    match_whole_words: bool | None = Field(default=None, description="Keys match whole words only; null = default.")
    use_group_scoring: bool | None = Field(
        default=None, description="Inclusion groups pick by match score; null = default."
    )
    include_names: bool | None = Field(default=None, description="Scan text includes speaker names; null = default.")


class LorebookSettingsInput(Model):
    name: str | None = Field(default=None, min_length=1, description="The book's display name. Omit to keep.")
    description: str | None = Field(default=None, description="What the book is about; not inserted. Omit to keep.")
    settings: BookSettingsPatch | None = Field(
        default=None, description="Scan settings to change; only the ones given change."
    )


def preview(piece, inp: LorebookSettingsInput) -> Preview:
    body = piece.body
    update = {}
    if inp.description is not None:
        update["description"] = inp.description
    warnings = []
    if inp.settings is not None:
        update["settings"] = merge_partial(body.settings, given(inp.settings))
        if update["settings"].scan_depth == 0:
            warnings.append("scan_depth 0 scans no messages: only constant entries will ever activate")
        if update["settings"].token_budget == 0:
            warnings.append("token_budget 0 leaves no room: entries not marked ignore_budget are never inserted")
    new = piece.model_copy(update={"body": body.model_copy(update=update), "name": inp.name or piece.name})
    return Preview(new, warnings=warnings)


CAPABILITY = Capability(
    id="lorebook.settings.update",
    kind="lorebook",
    area="settings",
    action="update",
    summary="Change a lorebook's name, description or scan settings (scan depth, token budget, recursion, matching).",
    aliases=("rename lorebook", "scan depth", "token budget", "recursion", "world info settings", "book settings"),
    input_model=LorebookSettingsInput,
    preview=preview,
)
