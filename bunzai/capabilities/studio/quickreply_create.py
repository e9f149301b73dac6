"""studio.quickreply.create: a new quick-reply set with its buttons (messages stored, never run)."""

from __future__ import annotations

from bunzai.capabilities.common.create_inputs import create_input_model
from bunzai.capabilities.common.create_preview import create_preview
from bunzai.capabilities.common.quickreply_items import item_warnings
from bunzai.capabilities.contract import Capability
from bunzai.model.quickreply import QuickReply

QuickReplyCreateInput = create_input_model(
    "quickreply",
    "QuickReplyCreateInput",
    "A new quick-reply set: `name`, an optional `id`, a description, button settings and items "
    "(items without an id get the next free one).",
)


def complete_items(body: dict) -> list[str]:
    items = body.get("items", [])
    taken = {item["id"] for item in items if "id" in item}
    next_id = 1
    warnings = []
    for item in items:
        if "id" not in item:
            while next_id in taken:
                next_id += 1
            item["id"] = next_id
            taken.add(next_id)
        warnings += item_warnings(QuickReply.model_validate(item).model_dump(mode="json"))
    return warnings


CAPABILITY = Capability(
    id="studio.quickreply.create",
    kind="quickreply",
    domain="studio",
    mode="create",
    area="quickreply",
    action="create",
    summary="Create a quick-reply set with its buttons (label, message or STscript, icon, auto-execution).",
    aliases=("new quick reply set", "create quick replies", "new buttons", "new qr set"),
    input_model=QuickReplyCreateInput,
    preview=create_preview("quickreply", complete_items),
)
