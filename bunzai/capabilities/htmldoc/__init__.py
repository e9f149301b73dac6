"""HTML-document capabilities: the document's markup (sealed: stored, never executed or rendered) and its descriptions."""
