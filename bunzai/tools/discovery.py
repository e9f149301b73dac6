"""Finding tools by walking this folder: a new module appears in `bunzai mcp` with no other edit.

The rule (the capabilities' rule, one level flatter): every module of `bunzai.tools` that
defines a module-level `TOOL` is a tool; modules without one (the contract, shared helpers)
are skipped. Two modules claiming one name are refused.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import threading
from functools import lru_cache

from bunzai.errors import BunzaiError
from bunzai.limits import MCP_TOOL_NAME_MAX_CHARS
from bunzai.tools.contract import EFFECTS, Tool

ROOT_PACKAGE = "bunzai.tools"
# MCP clients accept tool names of letters, digits, `_` and `-`; bunzai's are snake_case.
NAME = re.compile(rf"[a-z][a-z0-9_]{{0,{MCP_TOOL_NAME_MAX_CHARS - 1}}}")


def discover(package: str = ROOT_PACKAGE) -> list:
    """Every tool under `package`, sorted by name; invalid_tool on a broken module."""
    root = importlib.import_module(package)
    found: dict[str, tuple[str, Tool]] = {}
    for info in sorted(pkgutil.iter_modules(root.__path__), key=lambda info: info.name):
        if info.ispkg or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        tool = getattr(module, "TOOL", None)
        if tool is None:
            continue
        where = f"{package}.{info.name}"
        if not isinstance(tool, Tool):
            raise BunzaiError(
                "invalid_tool",
                f"{where}: TOOL is a {type(tool).__name__}, not a Tool",
                "build it with bunzai.tools.contract.Tool(...)",
            )
        if not NAME.fullmatch(tool.name) or tool.effect not in EFFECTS or not tool.description.strip():
            raise BunzaiError(
                "invalid_tool",
                f"{where}: tool {tool.name!r} needs a name of [a-z0-9_], "
                "an effect of read/draft/apply/delete and a description",
                "see bunzai/tools/contract.py",
            )
        if tool.name in found:
            raise BunzaiError(
                "invalid_tool",
                f"tool {tool.name!r} is defined twice: in {found[tool.name][0]} and in {where}",
                "tool names are unique; rename one of them",
            )
        found[tool.name] = (where, tool)
    return [found[name][1] for name in sorted(found)]


_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _found() -> tuple:
    return tuple(discover())


def all_tools() -> tuple:
    """Every tool, found once; the lock keeps the server's warm-up thread and a first call from
    walking the folder at the same time."""
    with _LOCK:
        return _found()


def find_tool(name: str):
    for tool in all_tools():
        if tool.name == name:
            return tool
    raise BunzaiError("not_found", f"no tool {name!r}", "see `bunzai mcp` tools/list or docs/mcp.md")
