"""Regex-set capabilities: settings and the rule lifecycle (add, update, reorder, remove).

Rules are stored, never executed.
"""
