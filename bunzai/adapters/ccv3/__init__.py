"""Character Card V1, V2 and V3 JSON files, and the standalone `lorebook_v3` book."""

import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
    importlib.import_module(f"{__name__}.{_info.name}")
