"""Marinara Engine: `.marinara.json` exports (presets, characters, personas, lorebooks, chat presets)."""
