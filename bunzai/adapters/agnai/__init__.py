"""Agnai (Agnaistic): native characters, memory books, its hybrid Tavern export, V3 cards it can read."""

import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
    importlib.import_module(f"{__name__}.{_info.name}")
