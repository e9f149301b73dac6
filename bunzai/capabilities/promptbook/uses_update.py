"""promptbook.uses.update: the library items one phase carries, by id, for one kind."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose
from bunzai.capabilities.common.phase_refs import (
    LIST_ACTION_DESCRIPTION,
    ListAction,
    checked_ids,
    edited_list,
    phase_of,
)
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model
from bunzai.model.promptbook_library import UseKind


class UsesInput(Model):
    """The phase, the library kind, and the change to the ids it uses."""

    phase: str = Field(description="Id of the phase.")
    library: UseKind = Field(
        description="scripts, skills, tools, dice or trackers (the promptbook's library), "
        "or regex (regex pieces in the studio)."
    )
    action: ListAction = Field(default="set", description=LIST_ACTION_DESCRIPTION)
    ids: list[str] = Field(description="Ids of the items.")
    at: int | None = Field(default=None, ge=0, description="For add: insert at this 0-based index; default the end.")


def preview_uses(entity, data: UsesInput) -> Preview:
    doc = piece_json(entity)
    phase = phase_of(doc, data.phase)
    checked_ids(data.ids, data.library)
    current = phase["uses"][data.library]
    phase["uses"][data.library], warnings = edited_list(
        current, data.action, data.ids, data.at, f"phase {data.phase!r} uses {data.library}"
    )
    if data.library != "regex" and data.action != "remove":
        # A reference to nothing is allowed (it may be added next) but is worth saying now.
        held = {item["id"] for item in doc["body"]["library"][data.library]}
        warnings += [
            f"the library holds no {data.library} item {item_id!r} yet; rehearse reports it missing"
            for item_id in data.ids
            if item_id not in held
        ]
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="promptbook.uses.update",
    kind="promptbook",
    area="uses",
    action="update",
    summary="Set, add or remove the library items one phase of a promptbook uses: script sheets, skills, tools, "
    "dice, trackers (by id in the promptbook's library) or regex pieces (by id in the studio).",
    aliases=("phase skills", "phase tools", "phase dice", "phase regex", "phase trackers", "use script sheet"),
    input_model=UsesInput,
    preview=preview_uses,
)
