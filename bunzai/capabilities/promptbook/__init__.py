"""Promptbook capabilities: settings, phases (add, update, remove, reorder), cards, reads, together groups,
the library (script sheets, skills, tools, dice, trackers) and what each phase uses of it.

Every preview re-validates the whole promptbook, so a decoder rule broken by an edit is
refused with the rule's name (invalid_promptbook, details.rule).
"""
