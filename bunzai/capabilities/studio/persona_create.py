"""studio.persona.create: a new persona from its name, description, profile and injection."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.character_media import IMAGE_DESCRIPTION, Collected, portrait_ref
from bunzai.capabilities.common.create_inputs import body_given, create_input_model, new_piece_json
from bunzai.capabilities.common.patching import propose, refuse
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import AssetRef

PersonaCreateInput = create_input_model(
    "persona",
    "PersonaCreateInput",
    "A new persona: `name` (what {{user}} stands for), an optional `id`, and any persona fields; the `portrait` "
    "as @file, data: URI or stored asset.",
    replace={
        "portrait": (
            str | AssetRef | None,
            Field(default=None, description="The persona's avatar. " + IMAGE_DESCRIPTION),
        )
    },
)


def preview_persona_create(entity, data) -> Preview:
    if entity is not None:
        raise refuse(
            "studio.persona.create makes a new piece; it takes no existing one",
            "a create starts from nothing: give no piece to work on, and name the new piece with --id",
        )
    collected = Collected()
    body = body_given(data, exclude=("portrait",))
    portrait = portrait_ref(data.portrait, collected)
    if portrait is not None:
        body["portrait"] = portrait.model_dump(mode="json")
    return Preview(
        entity=propose(new_piece_json("persona", data, body)),
        warnings=collected.warnings,
        attachments=collected.attachments,
    )


CAPABILITY = Capability(
    id="studio.persona.create",
    kind="persona",
    domain="studio",
    mode="create",
    area="persona",
    action="create",
    summary="Create a persona: name, description, brief, profile, injection position/depth/role, portrait.",
    aliases=("new persona", "create persona", "make persona", "new user persona"),
    input_model=PersonaCreateInput,
    preview=preview_persona_create,
)
