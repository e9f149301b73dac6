"""The command line: one module per command group, each thin (parse, call, print JSON)."""
