"""quickreply.items.add: new buttons, placed in the set."""

from __future__ import annotations

from pydantic import Field

from bunzai.adapters.sillytavern.quickreplies import highest_issued_id, st_ids
from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.common.positions import Placement, insertion_index
from bunzai.capabilities.common.quickreply_items import ItemFields, item_warnings
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.quickreply import QuickReply


class NewItem(ItemFields):
    """A new button; fields not given take the model's defaults."""

    id: int | None = Field(
        default=None, ge=0, description="Item id, unique in the set; default: as SillyTavern numbers a new reply."
    )


class ItemsAddInput(Placement):
    """Buttons to add, and where (before/after an item id, at an index; default the end)."""

    items: list[NewItem] = Field(min_length=1, description="The new buttons, in order.")


def preview_items_add(entity, data: ItemsAddInput) -> Preview:
    doc = piece_json(entity)
    items = doc["body"]["items"]
    index = insertion_index(items, "id", data, "quick reply")
    taken = {item["id"] for item in items}
    for spec in data.items:
        if spec.id is None:
            continue
        if spec.id in taken:
            raise refuse(f"the set already has a quick reply {spec.id}", "leave id out to get a free one")
        taken.add(spec.id)
    ids = _new_ids(entity, items, data.items)
    new, warnings = [], []
    for spec, number in zip(data.items, ids):
        fields = {k: v for k, v in spec.model_dump(mode="json", exclude_unset=True).items() if v is not None}
        fields["id"] = number
        item = QuickReply.model_validate(fields).model_dump(mode="json")
        warnings += item_warnings(item)
        new.append(item)
    items[index:index] = new
    return Preview(entity=propose(doc), warnings=warnings)


def _new_ids(entity, items: list[dict], specs: list[NewItem]) -> list[int]:
    """The new items' ids, numbered as SillyTavern's addQuickReply numbers a new reply (the
    adapter's rule, st_ids): past its counter and every id, so no id it handed out is reused."""
    natives = [{"id": item["id"]} for item in items] + [{"id": spec.id} for spec in specs]
    issued = highest_issued_id(entity.original)  # the escrowed counter and ids
    return st_ids(natives, issued)[0][len(items) :]


CAPABILITY = Capability(
    id="quickreply.items.add",
    kind="quickreply",
    area="items",
    action="add",
    summary="Add quick-reply buttons to a set (a message or STscript, stored, never run).",
    aliases=("add quick reply", "new button", "add button", "add qr"),
    input_model=ItemsAddInput,
    preview=preview_items_add,
)
