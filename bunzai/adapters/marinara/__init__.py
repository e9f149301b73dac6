"""Marinara Engine: `.marinara.json` exports (presets, characters, personas, lorebooks, chat presets)."""

from bunzai.adapters.marinara import (
    character,
    lorebook,
    persona,
    preset,
    refused,
)  # importing a module registers its adapter

__all__ = ["character", "lorebook", "persona", "preset", "refused"]
