"""Character Card V1, V2 and V3 JSON files, and the standalone `lorebook_v3` book."""
