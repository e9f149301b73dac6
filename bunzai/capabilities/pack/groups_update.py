"""pack.groups.update: a group's name or items."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import given, nothing_given, piece_json, propose, refuse
from bunzai.capabilities.common.positions import index_of
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class GroupsUpdateInput(Model):
    """The group, by name, and what to change."""

    name: str = Field(description="Name of the group to change.")
    new_name: str | None = Field(default=None, min_length=1, description="A new name for the group.")
    items: list[str] | None = Field(default=None, description="Ids of its items, in order (replaces the list).")


def preview_groups_update(entity, data: GroupsUpdateInput) -> Preview:
    doc = piece_json(entity)
    groups = doc["body"]["groups"]
    index = index_of(groups, "name", data.name, "group")
    if data.new_name is not None and data.new_name != data.name:
        if any(group["name"] == data.new_name for group in groups):
            raise refuse(f"the pack already has a group {data.new_name!r}", "pick a new_name no other group has")
        groups[index]["name"] = data.new_name
    if data.items is not None:
        groups[index]["items"] = data.items
    return Preview(entity=propose(doc), warnings=nothing_given(given(data, exclude={"name"}), "group"))


CAPABILITY = Capability(
    id="pack.groups.update",
    kind="pack",
    area="groups",
    action="update",
    summary="Rename a group of a pack or change the expression images it holds.",
    aliases=("edit outfit", "rename sprite group", "change group items"),
    input_model=GroupsUpdateInput,
    preview=preview_groups_update,
)
