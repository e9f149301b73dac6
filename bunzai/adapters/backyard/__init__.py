"""Backyard AI (formerly Faraday): BYAF archives and legacy character PNGs."""
