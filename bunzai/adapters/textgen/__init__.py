"""text-generation-webui (oobabooga): YAML characters and the old Pygmalion JSON."""

import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
    importlib.import_module(f"{__name__}.{_info.name}")
