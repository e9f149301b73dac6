"""promptbook.library.manage: the promptbook's script sheets, skills, tools, dice and trackers.

Items are removed first, then put: an item whose id is already in its kind's list replaces
that item in place, any other goes last. Removing an item a phase still uses is allowed
(rehearse then reports the reference missing) and warned about, unless `drop_uses` also
takes the id out of the phases' `uses`.
"""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model
from bunzai.model.promptbook_library import LIBRARY_KINDS, PromptbookLibrary


class LibraryIds(Model):
    """Ids per library kind."""

    scripts: list[str] = Field(default_factory=list, description="Ids of script sheets.")
    skills: list[str] = Field(default_factory=list, description="Ids of skills.")
    tools: list[str] = Field(default_factory=list, description="Ids of tools.")
    dice: list[str] = Field(default_factory=list, description="Ids of dice.")
    trackers: list[str] = Field(default_factory=list, description="Ids of trackers.")


class LibraryInput(Model):
    """Library items to remove, then items to put (add, or replace the item with the same id)."""

    remove: LibraryIds = Field(default_factory=LibraryIds, description="Ids to take out of the library, per kind.")
    put: PromptbookLibrary = Field(
        default_factory=PromptbookLibrary,
        description="Items per kind: an id already in the library replaces that item, a new id is added last.",
    )
    drop_uses: bool = Field(
        default=False,
        description=(
            "Also take removed ids out of every phase's `uses`; false keeps them (rehearse reports them missing)."
        ),
    )


def preview_library(entity, data: LibraryInput) -> Preview:
    removing = {kind: getattr(data.remove, kind) for kind in LIBRARY_KINDS if getattr(data.remove, kind)}
    putting = {kind: getattr(data.put, kind) for kind in LIBRARY_KINDS if getattr(data.put, kind)}
    if not (removing or putting):
        raise refuse(
            "give library items to put or ids to remove",
            'e.g. {"put": {"dice": [{"id": "attack", "name": "Attack", "notation": "1d20+3"}]}}',
        )
    doc = piece_json(entity)
    library = doc["body"]["library"]
    warnings: list[str] = []
    for kind, ids in removing.items():
        held = {item["id"] for item in library[kind]}
        for item_id in ids:
            if item_id not in held:
                raise refuse(
                    f"the library holds no {kind} item {item_id!r}", f"held: {', '.join(sorted(held)) or 'none'}"
                )
        library[kind] = [item for item in library[kind] if item["id"] not in ids]
        warnings += _uses_of_removed(doc, kind, set(ids), data.drop_uses)
    for kind, items in putting.items():
        ids = [item.id for item in items]
        if len(set(ids)) != len(ids):
            raise refuse(f"put: two {kind} items share an id", "give each item in `put` its own id")
        for item in items:
            new = item.model_dump(mode="json")
            index = next((i for i, old in enumerate(library[kind]) if old["id"] == item.id), None)
            if index is None:
                library[kind].append(new)
            else:
                library[kind][index] = new
                warnings.append(f"{kind} item {item.id!r} is replaced")
    return Preview(entity=propose(doc), warnings=warnings)


def _uses_of_removed(doc: dict, kind: str, gone: set[str], drop: bool) -> list[str]:
    warnings = []
    for phase in doc["body"]["phases"]:
        used = [item_id for item_id in phase["uses"][kind] if item_id in gone]
        if not used:
            continue
        names = ", ".join(map(repr, used))
        if drop:
            phase["uses"][kind] = [item_id for item_id in phase["uses"][kind] if item_id not in gone]
            warnings.append(f"phase {phase['id']!r} no longer uses {kind} {names}")
        else:
            warnings.append(
                f"phase {phase['id']!r} still uses {kind} {names}, now missing; "
                "rehearse reports it (drop_uses takes it out)"
            )
    return warnings


CAPABILITY = Capability(
    id="promptbook.library.manage",
    kind="promptbook",
    area="library",
    action="manage",
    summary="Add, replace or remove a promptbook's library items: script sheets, skills, tools (JSON-schema "
    "parameters), dice (notation like 2d6+1) and trackers (fields with starting values).",
    aliases=("add skill", "add tool", "add dice", "add tracker", "script sheet", "promptbook library", "remove skill"),
    input_model=LibraryInput,
    preview=preview_library,
)
