"""Pack capabilities: settings and default face, media items (add, update, remove) and named groups."""
