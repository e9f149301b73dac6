"""Codecs several spokes share (not a spoke: registers nothing)."""
