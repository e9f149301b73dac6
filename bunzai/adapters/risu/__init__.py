"""RisuAI: Risu CHARX, lorebook and regex exports, `.risum` modules, `.risup` presets."""

import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
    importlib.import_module(f"{__name__}.{_info.name}")
