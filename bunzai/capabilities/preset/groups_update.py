"""preset.groups.update: a prompt group's name, blocks or on/off state."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import given, merge_patch, nothing_given, piece_json, propose, refuse
from bunzai.capabilities.common.positions import index_of
from bunzai.capabilities.common.preset_blocks import check_group_blocks, check_known
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class GroupsUpdateInput(Model):
    """The group, by id, and the fields to change."""

    id: str = Field(description="Id of the group to change.")
    new_id: str | None = Field(default=None, min_length=1, description="Rename the group's id.")
    name: str | None = Field(default=None, min_length=1, pattern=r"\S", description="Name shown to people (not blank).")
    blocks: list[str] | None = Field(
        default=None, description="Identifiers of its blocks, in order (replaces the list)."
    )
    enabled: bool | None = Field(default=None, description="Whether the group's blocks are on.")


def preview_groups_update(entity, data: GroupsUpdateInput) -> Preview:
    doc = piece_json(entity)
    body = doc["body"]
    index = index_of(body["groups"], "id", data.id, "prompt group")
    patch = given(data, exclude={"id", "new_id"})
    warnings = nothing_given(given(data, exclude={"id"}), "group")
    if data.blocks is not None:
        check_known(body, data.blocks)
        others = body["groups"][:index] + body["groups"][index + 1 :]
        warnings += check_group_blocks(data.blocks, data.new_id or data.id, others)
    if data.new_id is not None and data.new_id != data.id:
        if any(group["id"] == data.new_id for group in body["groups"]):
            raise refuse(f"the preset already has a group {data.new_id!r}", "pick a new_id no other group has")
        patch["id"] = data.new_id
    body["groups"][index] = merge_patch(body["groups"][index], patch)
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="preset.groups.update",
    kind="preset",
    area="groups",
    action="update",
    summary="Rename a preset's prompt group, change its blocks, or turn it on or off.",
    aliases=("edit prompt group", "toggle group", "rename group"),
    input_model=GroupsUpdateInput,
    preview=preview_groups_update,
)
