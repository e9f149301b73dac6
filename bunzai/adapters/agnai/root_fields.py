"""The V1 fields Agnai reads at the top level of a card, kept equal to the card's `data`."""

from __future__ import annotations

from bunzai.adapters.common.drift import as_str
from bunzai.adapters.common.fieldmap import put

# In the order Agnai's Tavern export writes them (common/characters.ts exportCharacter).
V1_KEYS = ("name", "first_mes", "scenario", "description", "personality", "mes_example")


def sync_root(document: dict, data: dict) -> None:
    """Copy the six V1 fields of `data` to the top level of `document` (in place)."""
    for key in V1_KEYS:
        put(document, key, as_str(data.get(key)), as_str)


def with_root_first(document: dict) -> dict:
    """`document` with all six V1 fields first, as Agnai writes them, when it had none before.

    `sync_root` leaves an empty field out (it reads as absent), but Agnai's export always
    writes all six, `personality: ''` included.
    """
    return {key: document.get(key, "") for key in V1_KEYS} | {
        key: value for key, value in document.items() if key not in V1_KEYS
    }
