"""Tools: one module per tool, the functions both the CLI and the MCP server call (see contract.py)."""
