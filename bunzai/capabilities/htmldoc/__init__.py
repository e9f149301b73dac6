"""HTML-document capabilities: the document's markup and its descriptions.

The markup is sealed: stored, never executed or rendered.
"""
