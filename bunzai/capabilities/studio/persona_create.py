"""studio.persona.create: a new persona from its name, description, profile and injection."""

from __future__ import annotations

from bunzai.capabilities.common.create_inputs import create_input_model
from bunzai.capabilities.common.create_preview import create_preview
from bunzai.capabilities.contract import Capability

PersonaCreateInput = create_input_model(
    "persona", "PersonaCreateInput",
    "A new persona: `name` (what {{user}} stands for), an optional `id`, and any persona fields.",
)

CAPABILITY = Capability(
    id="studio.persona.create", kind="persona", domain="studio", mode="create", area="persona", action="create",
    summary="Create a persona: name, description, brief, profile, injection position/depth/role, portrait.",
    aliases=("new persona", "create persona", "make persona", "new user persona"),
    input_model=PersonaCreateInput, preview=create_preview("persona"),
)
