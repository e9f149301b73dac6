"""Character operations: one module per capability; target.py routes edits into a variant."""
