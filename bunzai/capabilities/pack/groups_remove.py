"""pack.groups.remove: groups removed (their items stay in the pack)."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose
from bunzai.capabilities.common.positions import index_of
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class GroupsRemoveInput(Model):
    """The groups to remove, by name; their items stay."""

    names: list[str] = Field(min_length=1, description="Names of the groups to remove.")


def preview_groups_remove(entity, data: GroupsRemoveInput) -> Preview:
    doc = piece_json(entity)
    groups = doc["body"]["groups"]
    for name in data.names:
        index_of(groups, "name", name, "group")
    doc["body"]["groups"] = [group for group in groups if group["name"] not in set(data.names)]
    return Preview(entity=propose(doc))


CAPABILITY = Capability(
    id="pack.groups.remove",
    kind="pack",
    area="groups",
    action="remove",
    summary="Remove groups from a pack; their expression images stay.",
    aliases=("delete outfit", "ungroup sprites", "delete sprite group"),
    input_model=GroupsRemoveInput,
    preview=preview_groups_remove,
)
