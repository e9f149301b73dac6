"""preset.blocks.enable: turn prompt blocks on or off, in every prompt order or in one."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.common.preset_blocks import check_known, list_blocks
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model
from bunzai.model.preset import order_index


class BlocksEnableInput(Model):
    """Which blocks, on or off, and where."""

    identifiers: list[str] = Field(min_length=1, description="Identifiers of the blocks to switch.")
    enabled: bool = Field(default=True, description="true turns them on, false turns them off.")
    target: str | None = Field(
        default=None,
        description=(
            "Only this prompt order ('global', the one sent for every character, or another order's key); "
            "turning on a block it does not list lists it (beside the same neighbours as in the block list). "
            "Default: the block itself and every order that lists it."
        ),
    )


def preview_blocks_enable(entity, data: BlocksEnableInput) -> Preview:
    doc = piece_json(entity)
    body = doc["body"]
    check_known(body, data.identifiers)
    wanted = set(data.identifiers)
    orders = body["orders"]
    if data.target is not None:
        index = order_index([order["target"] for order in orders], data.target)
        orders = [orders[index]] if index is not None else []
        if not orders:
            raise refuse(
                f"the preset has no prompt order {data.target!r}",
                "orders: " + (", ".join(repr(order["target"]) for order in body["orders"]) or "(none)"),
            )
    else:
        for block in body["prompts"]:
            if block["identifier"] in wanted:
                block["enabled"] = data.enabled
    listed: set[str] = set()
    for order in orders:
        for item in order["items"]:
            if item["identifier"] in wanted:
                item["enabled"] = data.enabled
                listed.add(item["identifier"])
    unlisted = [name for name in dict.fromkeys(data.identifiers) if name not in listed]
    if data.target is not None and data.enabled:
        # a frontend sends only the blocks an order lists: turning one on there lists it
        list_blocks(body, orders[0], unlisted)
        return Preview(
            entity=propose(doc),
            warnings=[f"block {name!r} was not in order {data.target!r}; it is listed there now" for name in unlisted],
        )
    warnings = []
    if body["orders"]:
        warnings = [
            f"block {name!r} is in no {'such ' if data.target else ''}prompt order; "
            + ("nothing changed for it" if data.target else "only its own flag changed (give `target` to list it)")
            for name in unlisted
        ]
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="preset.blocks.enable",
    kind="preset",
    area="blocks",
    action="enable",
    summary="Turn prompt blocks of a preset on or off, in every prompt order or in one.",
    aliases=("enable prompt", "disable prompt", "toggle prompt", "turn off prompt", "switch block"),
    input_model=BlocksEnableInput,
    preview=preview_blocks_enable,
)
