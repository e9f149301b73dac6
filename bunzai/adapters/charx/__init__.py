"""CHARX: Character Card V3 as a ZIP archive (`card.json` at the root, media as members)."""

import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
    importlib.import_module(f"{__name__}.{_info.name}")
