"""Promptbooks: a turn as an ordered list of phases (private thinking, the reply, after-work).

A phase runs a preset with some cards on some agent/model. The decoder rules below make a
promptbook something a runner can execute without guessing; each refusal names its rule
(`PydanticCustomError` type `promptbook_rule`, ctx `{"rule": ...}`):

- duplicate_phase_id: phase ids are unique.
- phase_order: stages come in order: every private phase, then the reply phase(s), then
  every after phase (disabled phases included: the list is the running order).
- reply_phase_count: exactly one enabled reply phase, and it has no condition; a turn
  always replies exactly once. Disabled reply phases may be kept as alternates.
- read_of_later_phase: a phase reads only phases listed before it (not itself, not a later
  one, not an unknown id).
- invalid_together_group: phases sharing a `together` group run at the same time, so the
  members of a group are adjacent in the list, of the same stage, not the reply stage, at
  least two, and none reads another member (its output would not exist yet).
- duplicate_library_id: ids are unique within each kind of the promptbook's library
  (bunzai.model.promptbook_library). A phase's `uses` naming an id that does not exist is
  not refused: rendering reports it.

The rules are checked in that order and the first broken one is reported. The default
body holds one reply phase, so a promptbook created from just a name is valid; an
explicit empty `phases` list is refused (reply_phase_count).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from bunzai.model.base import Model, PieceBase, SafeId
from bunzai.model.preset import Attachment
from bunzai.model.promptbook_library import LIBRARY_KINDS, PhaseUses, PromptbookLibrary

Stage = Literal["private", "reply", "after"]
_STAGE_RANK = {"private": 0, "reply": 1, "after": 2}


class Phase(Model):
    """One step of a turn."""

    id: SafeId = Field(description="Phase id, unique in the promptbook.")
    name: str = Field(default="", description="Name shown to people.")
    stage: Stage = Field(default="private", description="private (before the reply, unseen), reply, or after.")
    enabled: bool = Field(default=True, description="Disabled phases are kept but never run.")
    preset: SafeId | None = Field(default=None, description="Id of the preset the phase runs; None = the chat's.")
    cards: list[SafeId] = Field(default_factory=list, description="Ids of the character cards in play, in order.")
    agent: str = Field(default="", description="Agent or connection that runs the phase; '' = the chat's.")
    model: str = Field(default="", description="Model name; '' = the agent's default.")
    reply_token_budget: int | None = Field(default=None, ge=1, description="Most tokens the phase may write.")
    condition: str | None = Field(default=None, description="Run only when this condition holds; None = always.")
    reads: list[SafeId] = Field(default_factory=list, description="Ids of earlier phases whose output this one reads.")
    together: str | None = Field(
        default=None, min_length=1, description="Together group: adjacent phases sharing it run at the same time."
    )
    uses: PhaseUses = Field(
        default_factory=PhaseUses,
        description="Library items the phase carries, by id per kind: script sheets, skills, tools, dice and "
        "trackers from the promptbook's library, regex pieces from the studio.",
    )


def _default_phases() -> list[Phase]:
    return [Phase(id="reply", name="Reply", stage="reply")]


def _refuse(rule: str, message: str) -> PydanticCustomError:
    return PydanticCustomError("promptbook_rule", f"{rule}: {message}", {"rule": rule})


class PromptbookBody(Model):
    """The phases of a turn, in running order, and the library their `uses` name."""

    description: str = Field(default="", description="What the promptbook does.")
    phases: list[Phase] = Field(
        default_factory=_default_phases, description="Phases in running order; see the decoder rules."
    )
    library: PromptbookLibrary = Field(
        default_factory=PromptbookLibrary,
        description="Script sheets, skills, tools, dice and trackers the phases use by id.",
    )
    attachments: list[Attachment] = Field(default_factory=list, description="Files travelling with the promptbook.")

    @model_validator(mode="after")
    def _decoder_rules(self) -> PromptbookBody:
        _check_unique_ids(self.phases)
        _check_stage_order(self.phases)
        _check_one_reply(self.phases)
        _check_reads(self.phases)
        _check_together_groups(self.phases)
        _check_library_ids(self.library)
        return self


def _check_unique_ids(phases: list[Phase]) -> None:
    seen: set[str] = set()
    for phase in phases:
        if phase.id in seen:
            raise _refuse("duplicate_phase_id", f"two phases share the id {phase.id!r}")
        seen.add(phase.id)


def _check_stage_order(phases: list[Phase]) -> None:
    for before, after in zip(phases, phases[1:]):
        if _STAGE_RANK[after.stage] < _STAGE_RANK[before.stage]:
            raise _refuse(
                "phase_order",
                f"{after.stage} phase {after.id!r} comes after {before.stage} phase {before.id!r}; "
                "private phases come first, then the reply, then after phases",
            )


def _check_one_reply(phases: list[Phase]) -> None:
    replies = [phase for phase in phases if phase.stage == "reply" and phase.enabled]
    if len(replies) != 1:
        raise _refuse("reply_phase_count", f"a promptbook needs exactly one enabled reply phase, not {len(replies)}")
    if replies[0].condition is not None:
        raise _refuse("reply_phase_count", f"the reply phase {replies[0].id!r} may not have a condition")


def _check_reads(phases: list[Phase]) -> None:
    position = {phase.id: index for index, phase in enumerate(phases)}
    for index, phase in enumerate(phases):
        for read in phase.reads:
            if read not in position:
                raise _refuse("read_of_later_phase", f"phase {phase.id!r} reads unknown phase {read!r}")
            if position[read] >= index:
                raise _refuse("read_of_later_phase", f"phase {phase.id!r} reads {read!r}, which does not run before it")


def _check_together_groups(phases: list[Phase]) -> None:
    members: dict[str, list[int]] = {}
    for index, phase in enumerate(phases):
        if phase.together is not None:
            members.setdefault(phase.together, []).append(index)
    for group, indexes in members.items():
        group_phases = [phases[index] for index in indexes]
        problem = None
        if len(indexes) < 2:
            problem = "has a single member; a together group runs two or more phases at once"
        elif indexes != list(range(indexes[0], indexes[-1] + 1)):
            problem = "has members that are not adjacent"
        elif len({phase.stage for phase in group_phases}) != 1:
            problem = "mixes stages"
        elif group_phases[0].stage == "reply":
            problem = "holds a reply phase; the reply runs alone"
        elif any(read in {p.id for p in group_phases} for phase in group_phases for read in phase.reads):
            problem = "has a member reading another member, whose output does not exist yet"
        if problem:
            raise _refuse("invalid_together_group", f"together group {group!r} {problem}")


def _check_library_ids(library: PromptbookLibrary) -> None:
    for kind in LIBRARY_KINDS:
        seen: set[str] = set()
        for item in getattr(library, kind):
            if item.id in seen:
                raise _refuse("duplicate_library_id", f"two {kind} in the library share the id {item.id!r}")
            seen.add(item.id)


class Promptbook(PieceBase):
    """A promptbook: the phases a turn runs through. Created from a name, it holds one reply phase."""

    kind: Literal["promptbook"] = Field(default="promptbook", description="Always 'promptbook'.")
    body: PromptbookBody = Field(default_factory=PromptbookBody, description="The phases of a turn.")
