"""Studio capabilities: `studio.<kind>.create` for the eight lifecycle kinds (a new piece from a rich, typed input)."""
