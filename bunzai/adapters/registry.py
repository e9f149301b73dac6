"""The hub: every format registers here; everything else asks here.

Spokes are found by walking this package: every sub-package except `common` is a spoke,
and every module of a spoke is imported (sorted by name; `_`-prefixed modules skipped), an
adapter module registering its adapter at its bottom. A spoke's `__init__` holds only its
docstring. Adding a platform is adding a folder; adding a format is adding a module.
"""

from __future__ import annotations

import importlib
import pkgutil

import bunzai.adapters as adapters_package
from bunzai.adapters.contract import Adapter, EngineSettings
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
    _READERS.clear()
    return adapter


def _load_spokes() -> None:
    global _loaded
    if _loaded:
        return
    for spoke in _sorted_modules(adapters_package):
        if spoke.ispkg and spoke.name not in _NOT_SPOKES:
            found = importlib.import_module(f"bunzai.adapters.{spoke.name}")
            for module in _sorted_modules(found):
                if not module.name.startswith("_"):
                    importlib.import_module(f"{found.__name__}.{module.name}")
    _loaded = True


def _sorted_modules(package) -> list[pkgutil.ModuleInfo]:
    """A package's modules by name: the same import order (and so registration order) everywhere."""
    return sorted(pkgutil.iter_modules(package.__path__), key=lambda info: info.name)


def configure(settings: EngineSettings) -> None:
    """Hand the engine settings (the studio's `[engines]`) to every adapter: the one way in."""
    for adapter in all_adapters():
        adapter.configure(settings)


def all_adapters() -> list[Adapter]:
    """Every registered adapter, sorted by format id."""
    _load_spokes()
    return [_ADAPTERS[key] for key in sorted(_ADAPTERS)]


def readers_of(container: str) -> tuple[Adapter, ...]:
    """The adapters that read files of `container` ("image", "archive", "text"), by format id:
    the candidates a file of that container is sniffed by, listed once rather than per file."""
    readers = _READERS.get(container)
    if readers is None:
        readers = _READERS[container] = tuple(a for a in all_adapters() if a.container == container and a.can_read)
    return readers


_READERS: dict[str, tuple[Adapter, ...]] = {}


def get_adapter(format_id: str) -> Adapter:
    """The adapter for a format id; unknown_format lists the known ones."""
    _load_spokes()
    try:
        return _ADAPTERS[format_id]
    except KeyError:
        close = _close_formats(format_id)
        otherwise = (
            "see `bunzai formats`" if close else "formats: " + ", ".join(sorted(_ADAPTERS)) + " (see `bunzai formats`)"
        )
        raise unknown_name(
            "unknown_format", f"no format {format_id!r}", format_id, _ADAPTERS, otherwise, close=close
        ) from None


# short names people write for a platform in a format id (st.world, tavern.card.png)
_PLATFORM_SHORT = {"st": "sillytavern", "tavern": "sillytavern", "risuai": "risu", "faraday": "backyard"}


def _close_formats(word: str) -> list[str]:
    """Format ids close to `word`, also read with a platform's short name spelled out."""
    from bunzai.limits import SUGGEST_MAX

    head, dot, rest = word.partition(".")
    full = _PLATFORM_SHORT.get(head.lower()) if dot else None
    spellings = ([f"{full}.{rest}"] if full else []) + [word]
    # a spelling that is a format id once spelled out, or without its file extension, comes first
    exact = [known for spelling in spellings for known in (spelling, spelling.rsplit(".", 1)[0]) if known in _ADAPTERS]
    close = exact + [close for spelling in spellings for close in suggestions(spelling, _ADAPTERS)]
    return list(dict.fromkeys(close))[:SUGGEST_MAX]


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
