"""promptbook.phases.update: one phase's name, stage, preset, agent, model, budget, condition or on/off."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import given, merge_patch, nothing_given, piece_json, propose, refuse
from bunzai.capabilities.common.phase_refs import checked_ids
from bunzai.capabilities.common.positions import index_of
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model
from bunzai.model.promptbook import Stage


class PhasesUpdateInput(Model):
    """The phase, by id, and the fields to change; null resets one. \
Cards, reads, together groups and uses have their own capabilities."""

    id: str = Field(description="Id of the phase to change.")
    new_id: str | None = Field(default=None, description="A new id; phases reading this one follow.")
    name: str | None = Field(default=None, description="Name shown to people.")
    stage: Stage | None = Field(default=None, description="private (before the reply, unseen), reply, or after.")
    enabled: bool | None = Field(default=None, description="Disabled phases are kept but never run.")
    preset: str | None = Field(default=None, description="Id of the preset the phase runs; null = the chat's.")
    agent: str | None = Field(default=None, description="Agent or connection that runs the phase; '' = the chat's.")
    model: str | None = Field(default=None, description="Model name; '' = the agent's default.")
    reply_token_budget: int | None = Field(
        default=None, ge=1, description="Most tokens the phase may write; null = no limit."
    )
    condition: str | None = Field(default=None, description="Run only when this condition holds; null = always.")


def preview_phases_update(entity, data: PhasesUpdateInput) -> Preview:
    doc = piece_json(entity)
    phases = doc["body"]["phases"]
    index = index_of(phases, "id", data.id, "phase")
    patch = given(data, exclude={"id", "new_id"})
    phases[index] = merge_patch(phases[index], patch)
    if data.new_id is not None and data.new_id != data.id:
        checked_ids([data.new_id], "new_id")
        if any(phase["id"] == data.new_id for phase in phases):
            raise refuse(f"the promptbook already has a phase {data.new_id!r}", "pick a new_id no other phase has")
        phases[index]["id"] = data.new_id
        for phase in phases:
            phase["reads"] = [data.new_id if read == data.id else read for read in phase["reads"]]
    return Preview(entity=propose(doc), warnings=nothing_given(given(data, exclude={"id"}), "phase"))


CAPABILITY = Capability(
    id="promptbook.phases.update",
    kind="promptbook",
    area="phases",
    action="update",
    summary="Edit one phase of a promptbook: name, stage, preset, agent, model, token budget, condition, on/off.",
    aliases=("edit phase", "rename phase", "disable phase", "phase model", "phase preset"),
    input_model=PhasesUpdateInput,
    preview=preview_phases_update,
)
