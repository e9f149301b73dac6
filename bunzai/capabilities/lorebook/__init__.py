"""Lorebook operations: one module per capability; entries.py holds the shared entry addressing."""
