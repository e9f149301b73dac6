"""pack.groups.add: named groups of items (an outfit, a pose set)."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model
from bunzai.model.pack import PackGroup


class GroupsAddInput(Model):
    """Groups to add, after the existing ones; names are unique in a pack."""

    groups: list[PackGroup] = Field(min_length=1, description="The new groups: a name and the ids of their items.")


def preview_groups_add(entity, data: GroupsAddInput) -> Preview:
    doc = piece_json(entity)
    names = {group["name"] for group in doc["body"]["groups"]}
    for group in data.groups:
        if not group.name:
            raise refuse("a group needs a name", "give each new group a name that is not empty")
        if group.name in names:
            raise refuse(f"the pack already has a group {group.name!r}", "change it with pack.groups.update")
        names.add(group.name)
        doc["body"]["groups"].append(group.model_dump(mode="json"))
    return Preview(entity=propose(doc))


CAPABILITY = Capability(
    id="pack.groups.add",
    kind="pack",
    area="groups",
    action="add",
    summary="Add named groups of expression images to a pack (an outfit, a pose set).",
    aliases=("add outfit", "group sprites", "new sprite group", "pose set"),
    input_model=GroupsAddInput,
    preview=preview_groups_add,
)
