"""preset.groups.remove: prompt groups removed (their blocks stay)."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose
from bunzai.capabilities.common.positions import index_of
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class GroupsRemoveInput(Model):
    """The groups to remove, by id; their blocks stay in the preset."""

    ids: list[str] = Field(min_length=1, description="Ids of the groups to remove.")


def preview_groups_remove(entity, data: GroupsRemoveInput) -> Preview:
    doc = piece_json(entity)
    body = doc["body"]
    for group_id in data.ids:
        index_of(body["groups"], "id", group_id, "prompt group")
    body["groups"] = [group for group in body["groups"] if group["id"] not in set(data.ids)]
    return Preview(entity=propose(doc))


CAPABILITY = Capability(
    id="preset.groups.remove",
    kind="preset",
    area="groups",
    action="remove",
    summary="Remove prompt groups from a preset; their blocks stay.",
    aliases=("delete prompt group", "ungroup prompts"),
    input_model=GroupsRemoveInput,
    preview=preview_groups_remove,
)
