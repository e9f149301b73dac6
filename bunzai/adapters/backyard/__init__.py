"""Backyard AI (formerly Faraday): BYAF archives and legacy character PNGs."""

from bunzai.adapters.backyard import byaf, legacy_png  # noqa: F401  (register the adapters)
