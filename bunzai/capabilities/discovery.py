"""Finding capabilities by walking their folders: a new module appears with no other edit.

The rule: every module in a sub-package of `bunzai.capabilities` (except the framework
packages in FRAMEWORK_PACKAGES) that defines a module-level `CAPABILITY` is a capability.
Modules without one (shared helpers) are skipped. Two modules claiming one id are refused.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import lru_cache

from bunzai.capabilities.contract import Capability
from bunzai.errors import BunzaiError
from bunzai.model import KIND_NAMES

ROOT_PACKAGE = "bunzai.capabilities"
# Sub-packages that hold framework helpers, not a kind's operations.
FRAMEWORK_PACKAGES = frozenset({"common"})


@dataclass(frozen=True)
class Found:
    """A discovered capability and the module (relative to the root package) defining it."""

    module: str
    capability: object  # bunzai.capabilities.contract.Capability


def discover(package: str = ROOT_PACKAGE) -> list[Found]:
    """Every capability under `package`, sorted by id; invalid_capability on a broken module."""
    root = importlib.import_module(package)
    found: dict[str, Found] = {}
    for folder in sorted(pkgutil.iter_modules(root.__path__), key=lambda info: info.name):
        if not folder.ispkg or folder.name in FRAMEWORK_PACKAGES or folder.name.startswith("_"):
            continue
        sub = importlib.import_module(f"{package}.{folder.name}")
        for info in sorted(pkgutil.iter_modules(sub.__path__), key=lambda info: info.name):
            if info.ispkg:
                continue
            name = f"{folder.name}.{info.name}"
            module = importlib.import_module(f"{package}.{name}")
            cap = getattr(module, "CAPABILITY", None)
            if cap is None:
                continue
            if not isinstance(cap, Capability):
                raise BunzaiError(
                    "invalid_capability",
                    f"{name}: CAPABILITY is a {type(cap).__name__}, not a Capability",
                    "build it with bunzai.capabilities.contract.Capability(...)",
                )
            if cap.kind not in KIND_NAMES:
                raise BunzaiError(
                    "invalid_capability",
                    f"{name}: kind {cap.kind!r} is not a kind bunzai knows",
                    "kinds: " + ", ".join(KIND_NAMES),
                )
            if cap.id in found:
                raise BunzaiError(
                    "invalid_capability",
                    f"capability id {cap.id!r} is defined twice: in {found[cap.id].module} and in {name}",
                    "ids are stable and unique; rename one of them",
                )
            found[cap.id] = Found(name, cap)
    return [found[key] for key in sorted(found)]


@lru_cache(maxsize=1)
def _registry() -> dict:
    return {item.capability.id: item.capability for item in discover()}


def all_capabilities() -> list:
    """Every capability of this installation (hidden ones included), sorted by id."""
    return list(_registry().values())


def find_capability(cap_id: str, *, include_hidden: bool = True):
    """The capability with this id; not_found (with the nearest ids) otherwise."""
    cap = _registry().get(cap_id)
    if cap is None or (cap.exposure == "hidden" and not include_hidden):
        import difflib

        close = difflib.get_close_matches(cap_id, [c.id for c in all_capabilities() if c.exposure != "hidden"], n=3)
        hint = (
            ("did you mean " + ", ".join(close) + "?")
            if close
            else "see `bunzai cap browse` or `bunzai cap find WORDS`"
        )
        raise BunzaiError("not_found", f"no capability {cap_id!r}", hint)
    return cap


def visible_capabilities() -> list:
    """The capabilities people and agents are shown: every one but the hidden."""
    return [cap for cap in all_capabilities() if cap.exposure != "hidden"]
