"""promptbook.phases.reorder: the running order of the phases (the decoder rules still hold)."""

from __future__ import annotations

from bunzai.capabilities.common.patching import piece_json, propose
from bunzai.capabilities.common.positions import Reorder, reordered
from bunzai.capabilities.contract import Capability, Preview


class PhasesReorderInput(Reorder):
    """A new order of phase ids: the complete `order`, or `move` one before/after another or `to` an index."""


def preview_phases_reorder(entity, data: PhasesReorderInput) -> Preview:
    doc = piece_json(entity)
    doc["body"]["phases"] = reordered(doc["body"]["phases"], "id", data, "phase")
    return Preview(entity=propose(doc))


CAPABILITY = Capability(
    id="promptbook.phases.reorder",
    kind="promptbook",
    area="phases",
    action="reorder",
    summary="Change the running order of a promptbook's phases.",
    aliases=("reorder phases", "move phase", "phase order"),
    input_model=PhasesReorderInput,
    preview=preview_phases_reorder,
)
