"""Quick-reply capabilities: set settings and items (add, update, remove, reorder). Messages are stored, never run."""
