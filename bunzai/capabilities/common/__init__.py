"""Helpers the capability folders share (partial updates, list edits); no capabilities here."""
