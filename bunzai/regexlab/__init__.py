"""The regex lab: users' JavaScript regexes run in an embedded ECMAScript engine (QuickJS).

engine.py runs the engine (bounded in time, memory and size); lab.py reads and runs
patterns the way each platform does (`try`, `race`); syntax.py reads a pattern's clauses
(`explain`, and what lint and the samples need); lint.py checks a whole rule set;
recipes.py holds common roleplay rules; examples.py builds a pattern from examples;
drawing.py turns an HTML drawing into a replacement; probe.py warns where regex content
enters (capability drafts, imports). Every function takes plain values and returns JSON.
"""
