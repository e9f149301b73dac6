"""Backyard AI (formerly Faraday): BYAF archives and legacy character PNGs."""

from bunzai.adapters.backyard import byaf, legacy_png  # importing the modules registers their adapters

__all__ = ["byaf", "legacy_png"]
