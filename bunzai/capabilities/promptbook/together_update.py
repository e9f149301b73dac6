"""promptbook.together.update: together groups, phases that run at the same time."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.common.phase_refs import phase_of
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class TogetherInput(Model):
    """The group and what to do with it."""

    group: str = Field(min_length=1, description="Name of the together group.")
    action: Literal["join", "leave", "dissolve"] = Field(
        default="join",
        description="join: the listed phases join the group; leave: they leave it; dissolve: every member leaves.",
    )
    phases: list[str] = Field(
        default_factory=list, description="Ids of the phases joining or leaving (not for dissolve)."
    )


def preview_together(entity, data: TogetherInput) -> Preview:
    doc = piece_json(entity)
    warnings = []
    if data.action == "dissolve":
        members = [phase for phase in doc["body"]["phases"] if phase["together"] == data.group]
        if not members:
            in_use = sorted({phase["together"] for phase in doc["body"]["phases"] if phase["together"]})
            raise refuse(
                f"no phase is in together group {data.group!r}",
                "check the name; groups in use: " + (", ".join(map(repr, in_use)) or "none"),
            )
        for phase in members:
            phase["together"] = None
        return Preview(entity=propose(doc))
    if not data.phases:
        raise refuse(
            f"{data.action} needs the phases in `phases`", 'name them by id, e.g. {"phases": ["plan", "draft"]}'
        )
    for phase_id in data.phases:
        phase = phase_of(doc, phase_id)
        if data.action == "join":
            if phase["together"] not in (None, data.group):
                warnings.append(f"phase {phase_id!r} moves from together group {phase['together']!r} to {data.group!r}")
            phase["together"] = data.group
        elif phase["together"] != data.group:
            warnings.append(f"phase {phase_id!r} was not in together group {data.group!r}")
        else:
            phase["together"] = None
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="promptbook.together.update",
    kind="promptbook",
    area="together",
    action="update",
    summary="Put phases of a promptbook into a together group (run at the same time), take them out, or dissolve it.",
    aliases=("run in parallel", "parallel phases", "together group", "run phases together"),
    input_model=TogetherInput,
    preview=preview_together,
)
