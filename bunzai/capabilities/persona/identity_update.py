"""persona.identity.update: the persona's name, description (what the model reads) and brief."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import name_and_body_preview
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class IdentityInput(Model):
    """Only the fields given change; null resets a text to empty."""

    name: str | None = Field(
        default=None, min_length=1, pattern=r"\S", description="The name {{user}} stands for (not blank); omit to keep."
    )
    description: str | None = Field(
        default=None, description="First-person text injected into the prompt ({{persona}}); omit to keep."
    )
    brief: str | None = Field(default=None, description="One-line summary for shelves, never injected; omit to keep.")


def preview_identity(entity, data: IdentityInput) -> Preview:
    return name_and_body_preview(entity, data, "identity")


CAPABILITY = Capability(
    id="persona.identity.update",
    kind="persona",
    area="identity",
    action="update",
    summary="Rename a persona or change its description or one-line brief.",
    aliases=("rename persona", "persona name", "persona description", "user description", "persona brief"),
    input_model=IdentityInput,
    preview=preview_identity,
)
