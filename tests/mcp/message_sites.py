"""Every error message bunzai's code can raise, read from the source with `ast` (no module is imported).

A message is the text in message position: the `message` argument of BunzaiError, and of every
function of bunzai with a parameter named `message` that builds a BunzaiError (unknown_name,
refuse, _corrupt ...). Each is rendered as hint_sites renders a hint: a literal as itself, an
f-string with `{expression}` for each value, names and same-module calls followed.

bunzai/cli/ is left out, as for hints: the MCP server never runs it.
"""

from __future__ import annotations

import ast
from functools import lru_cache

import hint_sites as walk
from hint_sites import Site, _called_name, _Renderer, _tree

# The error class itself; other takers are found by what they build.
ERROR_CLASSES = ("BunzaiError",)


def _message_position(function: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> tuple[int | None, str] | None:
    arguments = function.args
    positional = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
    if method:
        positional = positional[1:]
    if "message" in positional:
        return positional.index("message"), "message"
    if any(argument.arg == "message" for argument in arguments.kwonlyargs):
        return None, "message"
    return None


def _builds_error(function: ast.AST) -> bool:
    return any(isinstance(node, ast.Call) and _called_name(node) in ERROR_CLASSES for node in ast.walk(function))


@lru_cache(maxsize=1)
def message_takers() -> dict[str, set[tuple[int | None, str]]]:
    """Error class or function name -> where its message argument sits."""
    takers: dict[str, set[tuple[int | None, str]]] = {}
    for path in sorted(walk.ROOT.rglob("*.py")):  # hint_sites.ROOT: a test may point it elsewhere
        for node in ast.walk(_tree(path)):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            parent = getattr(node, "parent", None)
            found = _message_position(node, method=isinstance(parent, ast.ClassDef))
            if found is None:
                continue
            if node.name == "__init__" and isinstance(parent, ast.ClassDef):
                if parent.name in ERROR_CLASSES:
                    takers.setdefault(parent.name, set()).add(found)
            elif _builds_error(node):
                takers.setdefault(node.name, set()).add(found)
    return takers


def _message_expressions(tree: ast.Module):
    takers = message_takers()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield from walk.taken_arguments(node, takers)


@lru_cache(maxsize=1)
def message_sites() -> tuple[Site, ...]:
    """Every (file, line, template) of an error message in bunzai outside bunzai/cli."""
    sites: list[Site] = []
    for path in walk.sources():
        renderer = _Renderer(path)
        shown = str(path.relative_to(walk.ROOT.parent))
        for expression in _message_expressions(renderer.tree):
            for template in renderer.render(expression):
                sites.append(Site(shown, expression.lineno, template))
    return tuple(dict.fromkeys(sites))
