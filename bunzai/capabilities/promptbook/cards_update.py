"""promptbook.cards.update: the character cards in play in one phase."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose
from bunzai.capabilities.common.phase_refs import (
    LIST_ACTION_DESCRIPTION,
    ListAction,
    checked_ids,
    edited_list,
    phase_of,
)
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class CardsInput(Model):
    """The phase and the change to its cards."""

    phase: str = Field(description="Id of the phase.")
    action: ListAction = Field(default="set", description=LIST_ACTION_DESCRIPTION)
    cards: list[str] = Field(description="Ids of character cards.")
    at: int | None = Field(default=None, ge=0, description="For add: insert at this 0-based index; default the end.")


def preview_cards(entity, data: CardsInput) -> Preview:
    doc = piece_json(entity)
    phase = phase_of(doc, data.phase)
    checked_ids(data.cards, "card")
    phase["cards"], warnings = edited_list(
        phase["cards"], data.action, data.cards, data.at, f"phase {data.phase!r} cards"
    )
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="promptbook.cards.update",
    kind="promptbook",
    area="cards",
    action="update",
    summary="Set, add or remove the character cards in play in one phase of a promptbook.",
    aliases=("phase cards", "add card to phase", "characters in phase", "cards in play"),
    input_model=CardsInput,
    preview=preview_cards,
)
