"""The MCP stdio server: protocol, dispatcher, envelope and result handles (`bunzai mcp`)."""
