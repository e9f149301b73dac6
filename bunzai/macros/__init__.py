"""Macros across engines: canonical operations, per-engine catalogs, the join on meaning, translation.

The library entry points are `translate_text` (bunzai.macros.translate), `macro_lookup`
(bunzai.macros.lookup) and `unannotated_divergence` (bunzai.macros.equivalence). Nothing here
is imported by the CLI at start-up: catalogs are parsed on first use and cached.
"""
