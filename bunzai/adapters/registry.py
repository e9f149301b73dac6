"""The hub: every format registers here; everything else asks here.

Spokes are found by walking this package: every sub-package except `common` is a spoke
and registers its adapters when imported. Adding a platform is adding a folder.
"""

from __future__ import annotations

import importlib
import pkgutil

from bunzai.adapters.contract import Adapter
from bunzai.errors import BunzaiError, suggestions, unknown_name

_ADAPTERS: dict[str, Adapter] = {}
_loaded = False
_NOT_SPOKES = {"common"}


def register(adapter: Adapter) -> Adapter:
    """Add an adapter to the hub (called once, at the bottom of a spoke module)."""
    if not adapter.format_id:
        raise ValueError(f"{type(adapter).__name__} has no format_id")
    known = _ADAPTERS.get(adapter.format_id)
    if known is not None and type(known) is not type(adapter):
        raise ValueError(f"format id {adapter.format_id!r} registered twice")
    _ADAPTERS[adapter.format_id] = adapter
    return adapter


def _load_spokes() -> None:
    global _loaded
    if _loaded:
        return
    import bunzai.adapters as package

    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.ispkg and info.name not in _NOT_SPOKES:
            importlib.import_module(f"bunzai.adapters.{info.name}")
    _loaded = True


def all_adapters() -> list[Adapter]:
    """Every registered adapter, sorted by format id."""
    _load_spokes()
    return [_ADAPTERS[key] for key in sorted(_ADAPTERS)]


def get_adapter(format_id: str) -> Adapter:
    """The adapter for a format id; unknown_format lists the known ones."""
    _load_spokes()
    try:
        return _ADAPTERS[format_id]
    except KeyError:
        close = suggestions(format_id, _ADAPTERS)
        otherwise = (
            "see `bunzai formats`" if close else "formats: " + ", ".join(sorted(_ADAPTERS)) + " (see `bunzai formats`)"
        )
        raise unknown_name(
            "unknown_format", f"no format {format_id!r}", format_id, _ADAPTERS, otherwise, close=close
        ) from None


def writer_for(format_id: str, kind: str) -> Adapter:
    """The adapter that writes `kind` as `format_id`, or a clear refusal."""
    adapter = get_adapter(format_id)
    if not adapter.can_write:
        raise BunzaiError(
            "unsupported", f"{format_id} is read-only in bunzai", "see `bunzai formats` for writable formats"
        )
    if kind not in adapter.kinds:
        writers = [a.format_id for a in all_adapters() if a.can_write and kind in a.kinds]
        raise BunzaiError(
            "unsupported",
            f"{format_id} ({adapter.label}) holds {', '.join(adapter.kinds)}, not a {kind}",
            f"formats that write a {kind}: {', '.join(writers) or 'none'}",
        )
    return adapter
