"""persona.injection.update: where the persona's description goes in the prompt, and its lorebook.

The lorebook is a Need: the runner loads the stored lorebook `lorebook` names (refusing an id
the studio does not hold with not_found and the ids spelled alike) into `lorebook_piece`.
"""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import given, merge_patch, nothing_given, piece_json, propose
from bunzai.capabilities.contract import Capability, Need, Preview
from bunzai.model.base import JsonObject, Model, Role
from bunzai.model.persona import PersonaPosition


class InjectionInput(Model):
    """Only the fields given change; null resets one to its default."""

    position: PersonaPosition | None = Field(
        default=None, description="Where the description goes: in_prompt, top_an, bottom_an, at_depth, none."
    )
    depth: int | None = Field(default=None, ge=0, description="Messages from the end, for position at_depth.")
    role: Role | None = Field(
        default=None, description="Message role (system, user, assistant), for position at_depth."
    )
    lorebook: str | None = Field(
        default=None, description="Id (or lorebook/<id>) of a stored lorebook bound to the persona; null unbinds it."
    )
    lorebook_piece: JsonObject | None = Field(
        default=None, description="Filled by bunzai from `lorebook` (the stored lorebook, canonical JSON)."
    )


def preview_injection(entity, data: InjectionInput) -> Preview:
    patch = given(data, exclude=("lorebook_piece",))
    if data.lorebook_piece is not None and data.lorebook:
        patch["lorebook"] = data.lorebook_piece.get("id", data.lorebook)  # lorebook/<id> binds by its id
    doc = piece_json(entity)
    doc["body"] = merge_patch(doc["body"], patch)
    proposed = propose(doc)
    warnings = nothing_given(patch, "injection")
    if ({"depth", "role"} & patch.keys()) and proposed.body.position != "at_depth":
        warnings.append(f"depth and role only apply at position at_depth; the position is {proposed.body.position}")
    if proposed.body.position == "none":
        warnings.append("position none: the persona description is not sent to the model")
    return Preview(entity=proposed, warnings=warnings)


CAPABILITY = Capability(
    id="persona.injection.update",
    kind="persona",
    area="injection",
    action="update",
    summary="Choose where a persona's description is injected (position, depth, role) and its bound lorebook.",
    aliases=("persona position", "persona depth", "persona injection", "persona lorebook", "inject persona"),
    input_model=InjectionInput,
    preview=preview_injection,
    needs=(Need(ref="lorebook", kind="lorebook", into="lorebook_piece"),),
)
