"""Agnai (Agnaistic): native characters, memory books, its hybrid Tavern export, V3 cards it can read."""
