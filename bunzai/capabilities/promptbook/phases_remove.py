"""promptbook.phases.remove: phases taken out of the turn."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose
from bunzai.capabilities.common.positions import index_of
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class PhasesRemoveInput(Model):
    """The phases to remove, and what happens to phases that read them."""

    ids: list[str] = Field(min_length=1, description="Ids of the phases to remove.")
    drop_reads: bool = Field(
        default=False,
        description=(
            "Also take the removed phases out of other phases' reads; false refuses while another phase reads one."
        ),
    )


def preview_phases_remove(entity, data: PhasesRemoveInput) -> Preview:
    doc = piece_json(entity)
    phases = doc["body"]["phases"]
    for phase_id in data.ids:
        index_of(phases, "id", phase_id, "phase")
    gone = set(data.ids)
    kept = [phase for phase in phases if phase["id"] not in gone]
    warnings = []
    if data.drop_reads:
        for phase in kept:
            dropped = [read for read in phase["reads"] if read in gone]
            if dropped:
                phase["reads"] = [read for read in phase["reads"] if read not in gone]
                warnings.append(f"phase {phase['id']!r} no longer reads {', '.join(map(repr, dropped))}")
    doc["body"]["phases"] = kept
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="promptbook.phases.remove",
    kind="promptbook",
    area="phases",
    action="remove",
    summary="Remove phases from a promptbook (refused while another phase reads one, unless drop_reads).",
    aliases=("delete phase", "remove step"),
    input_model=PhasesRemoveInput,
    preview=preview_phases_remove,
)
