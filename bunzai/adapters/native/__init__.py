"""bunzai.native: the canonical JSON itself, the one format every kind exports to."""

from bunzai.adapters.native import piece_file  # importing the module registers the format

__all__ = ["piece_file"]
