"""promptbook.reads.update: which earlier phases' output one phase reads (read_of_later_phase holds)."""

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


class ReadsInput(Model):
    """The phase and the change to what it reads."""

    phase: str = Field(description="Id of the phase that reads.")
    action: ListAction = Field(default="set", description=LIST_ACTION_DESCRIPTION)
    phases: list[str] = Field(description="Ids of phases listed before it, whose output it reads.")
    at: int | None = Field(default=None, ge=0, description="For add: insert at this 0-based index; default the end.")


def preview_reads(entity, data: ReadsInput) -> Preview:
    doc = piece_json(entity)
    phase = phase_of(doc, data.phase)
    checked_ids(data.phases, "phase")
    phase["reads"], warnings = edited_list(
        phase["reads"], data.action, data.phases, data.at, f"phase {data.phase!r} reads"
    )
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="promptbook.reads.update",
    kind="promptbook",
    area="reads",
    action="update",
    summary="Set, add or remove the earlier phases whose output one phase of a promptbook reads.",
    aliases=("phase reads", "read output of phase", "phase inputs", "feed phase"),
    input_model=ReadsInput,
    preview=preview_reads,
)
