"""promptbook.phases.add: new phases of a turn (private thinking, alternates, after-work)."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.common.positions import Placement, insertion_index
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.promptbook import Phase

_RANK = {"private": 0, "reply": 1, "after": 2}


class PhasesAddInput(Placement):
    """Phases to add, and where (before/after a phase id, at an index). Default: each goes last in its stage."""

    phases: list[Phase] = Field(min_length=1, description="The new phases; ids are unique in the promptbook.")


def preview_phases_add(entity, data: PhasesAddInput) -> Preview:
    doc = piece_json(entity)
    phases = doc["body"]["phases"]
    taken = {phase["id"] for phase in phases}
    new = []
    for phase in data.phases:
        if phase.id in taken:
            raise refuse(f"the promptbook already has a phase {phase.id!r}", "change it with promptbook.phases.update")
        taken.add(phase.id)
        new.append(phase.model_dump(mode="json"))
    if data.before is None and data.after is None and data.at is None:
        for phase in new:
            index = sum(1 for other in phases if _RANK[other["stage"]] <= _RANK[phase["stage"]])
            phases.insert(index, phase)
    else:
        index = insertion_index(phases, "id", data, "phase")
        phases[index:index] = new
    return Preview(entity=propose(doc))


CAPABILITY = Capability(
    id="promptbook.phases.add",
    kind="promptbook",
    area="phases",
    action="add",
    summary="Add phases to a promptbook's turn: private thinking before the reply, alternates, after-work.",
    aliases=("add phase", "add thinking step", "new phase", "add step"),
    input_model=PhasesAddInput,
    preview=preview_phases_add,
)
