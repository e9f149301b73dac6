"""bunzai.native: the canonical JSON itself, the one format every kind exports to."""

from bunzai.adapters.native import piece_file  # noqa: F401  (registers the format)
