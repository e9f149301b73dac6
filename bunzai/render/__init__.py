"""Rendering: the seal policy for drawings and what a sealed preview draws (html-will-draw)."""
