"""SillyTavern: cards, world info, presets, regex scripts, quick replies, personas, sprites."""

import importlib
import pkgutil

for _info in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_info.name}")
