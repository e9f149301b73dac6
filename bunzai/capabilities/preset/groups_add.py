"""preset.groups.add: named groups of prompt blocks (toggled or shown together)."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.common.positions import unique_key
from bunzai.capabilities.common.preset_blocks import check_group_blocks, check_known
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model
from bunzai.model.ids import slugify
from bunzai.model.preset import PromptGroup


# PromptGroup lets a stored group's name be blank, so pieces holding one still read; a new group
# needs a name, as Marinara's createPromptGroupSchema does (name: min 1).
class NewPromptGroup(PromptGroup):
    """A named group of blocks, toggled or shown together (Marinara groups, RisuAI folders)."""

    name: str = Field(min_length=1, pattern=r"\S", description="Name shown to people (not blank).")


class GroupsAddInput(Model):
    """Groups to add, after the existing ones."""

    groups: list[NewPromptGroup] = Field(
        min_length=1,
        description="The new groups; an empty id is made from the name. `blocks` name existing blocks.",
    )


def preview_groups_add(entity, data: GroupsAddInput) -> Preview:
    doc = piece_json(entity)
    body = doc["body"]
    taken = {group["id"] for group in body["groups"]}
    warnings = []
    for group in data.groups:
        item = group.model_dump(mode="json")
        check_known(body, item["blocks"])
        if not item["id"]:
            item["id"] = unique_key(slugify(item["name"]) or "group", taken)
            warnings.append(f"group {item['name']!r} was given the id {item['id']!r}")
        elif item["id"] in taken:
            raise refuse(f"the preset already has a group {item['id']!r}", "change it with preset.groups.update")
        warnings += check_group_blocks(item["blocks"], item["id"], body["groups"])
        taken.add(item["id"])
        body["groups"].append(item)
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="preset.groups.add",
    kind="preset",
    area="groups",
    action="add",
    summary="Add named groups of prompt blocks to a preset.",
    aliases=("add prompt group", "group prompts", "new group", "prompt folder"),
    input_model=GroupsAddInput,
    preview=preview_groups_add,
)
