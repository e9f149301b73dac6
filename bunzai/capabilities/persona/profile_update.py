"""persona.profile.update: the structured profile (label -> text): labels set or removed.

No reordering: the store writes JSON with sorted keys, so a map's key order does not survive a save.
"""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class ProfileInput(Model):
    """Labels given with text are set, null removes a label; labels not given stay as they are."""

    labels: dict[str, str | None] = Field(
        default_factory=dict,
        description="Label -> text to set, e.g. {'age': '34', 'pronouns': 'she/her'}; null removes the label.",
    )


def preview_profile(entity, data: ProfileInput) -> Preview:
    doc = piece_json(entity)
    profile: dict[str, str] = doc["body"]["profile"]
    warnings = []
    for label, text in data.labels.items():
        if not label.strip():
            raise refuse("a profile label may not be empty", 'give each label a name, e.g. {"labels": {"age": "34"}}')
        if text is None:
            if label not in profile:
                warnings.append(f"profile label {label!r} was not set; nothing to remove")
            profile.pop(label, None)
        else:
            profile[label] = text
    if not data.labels:
        warnings.append("no labels were given; nothing changes")
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="persona.profile.update",
    kind="persona",
    area="profile",
    action="update",
    summary="Set or remove the labelled facts of a persona's structured profile (age, pronouns ...).",
    aliases=("persona profile", "persona facts", "persona age", "pronouns", "user profile"),
    input_model=ProfileInput,
    preview=preview_profile,
)
