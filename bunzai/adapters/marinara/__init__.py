"""Marinara Engine: `.marinara.json` exports (presets, characters)."""

from bunzai.adapters.marinara import preset  # noqa: F401  (registers the adapter)
