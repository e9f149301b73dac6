"""CHARX: Character Card V3 as a ZIP archive (`card.json` at the root, media as members)."""
