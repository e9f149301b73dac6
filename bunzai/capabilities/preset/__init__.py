"""Preset capabilities: settings, samplers, prompt blocks (add, update, remove, reorder, enable, copy) and groups."""
