"""Marinara Engine: `.marinara.json` exports (presets, characters)."""

from bunzai.adapters.marinara import preset  # importing the module registers its adapter

__all__ = ["preset"]
