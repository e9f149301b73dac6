"""bunzai.native: the canonical JSON itself, the one format every kind exports to."""
