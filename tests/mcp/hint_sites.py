"""Every hint bunzai's code can raise, read from the source with `ast` (no module is imported).

A hint is the text in hint position: the `hint` argument of BunzaiError, and of every function
of bunzai whose parameter is named `hint`, `otherwise` or `*_hint` (unknown_name, did_you_mean,
refuse, receipt(hint=...), refusal(stale_hint) ...), a `"hint"` key of a dict literal, and an
assignment to `.hint`. Each is rendered as the templates it can take: a literal as itself, an
f-string with `{expression}` for each value, `a + b` and `x if c else y` as every combination, a
name as the values assigned to it (in its function, its module, or the bunzai module it is
imported from), and a call of a function of the same module as what that function returns.
What cannot be followed stays a `{placeholder}`.

bunzai/cli/ is left out: the MCP server never runs it (the arrows go cli -> tools).
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass
from functools import lru_cache, cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "bunzai"
LEFT_OUT = ("cli",)
TEMPLATES_PER_SITE_MAX = 64  # combinations past this are not followed (a site has a handful)


@dataclass(frozen=True)
class Site:
    path: str  # bunzai/store/graveyard.py
    line: int
    template: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.template!r}"


def sources() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py") if p.relative_to(ROOT).parts[0] not in LEFT_OUT)


@cache
def _tree(path: Path) -> ast.Module:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child.parent = node  # type: ignore[attr-defined]
    return tree


def _module_path(module: str) -> Path | None:
    if not module.startswith("bunzai."):
        return None
    base = ROOT.joinpath(*module.split(".")[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _hint_parameters(function: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> tuple[int | None, str] | None:
    """(the position of its hint parameter, or None when keyword-only; its name), or None."""
    arguments = function.args
    positional = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
    if method:
        positional = positional[1:]
    for index, name in enumerate(positional):
        if _is_hint_name(name):
            return index, name
    for argument in arguments.kwonlyargs:
        if _is_hint_name(argument.arg):
            return None, argument.arg
    return None


def _is_hint_name(name: str) -> bool:
    return name in ("hint", "otherwise") or name.endswith("_hint")


@lru_cache(maxsize=1)
def hint_takers() -> dict[str, set[tuple[int | None, str]]]:
    """Function (or class) name -> where its hint argument sits, for every def in bunzai."""
    takers: dict[str, set[tuple[int | None, str]]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found = _hint_parameters(node, method=isinstance(getattr(node, "parent", None), ast.ClassDef))
                name = node.name
                if name == "__init__" and isinstance(getattr(node, "parent", None), ast.ClassDef):
                    name = node.parent.name  # type: ignore[attr-defined]
                if found is not None:
                    takers.setdefault(name, set()).add(found)
    takers.pop("__init__", None)
    return takers


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def taken_arguments(call: ast.Call, takers: dict):
    """The arguments of `call` in a position its callee's `takers` entry names (index, keyword)."""
    for index, keyword in takers.get(_called_name(call) or "", ()):
        if index is not None and index < len(call.args) and not isinstance(call.args[index], ast.Starred):
            yield call.args[index]
        for given in call.keywords:
            if given.arg == keyword:
                yield given.value


def _hint_expressions(tree: ast.Module):
    """Every expression in hint position in the module."""
    takers = hint_takers()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield from taken_arguments(node, takers)
            if _called_name(node) not in takers:
                for given in node.keywords:  # receipt(..., hint=...) takes it in **extra
                    if given.arg == "hint":
                        yield given.value
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "hint":
                    yield value
        elif isinstance(node, ast.Assign):
            if any(isinstance(t, ast.Attribute) and t.attr == "hint" for t in node.targets):
                yield node.value
        elif isinstance(node, ast.Subscript) and isinstance(getattr(node, "parent", None), ast.Assign):
            if isinstance(node.slice, ast.Constant) and node.slice.value == "hint" and node in node.parent.targets:
                yield node.parent.value


class _Renderer:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.tree = _tree(path)

    def render(self, node: ast.AST, depth: int = 0) -> list[str]:
        if depth > 8:
            return [f"{{{ast.unparse(node)}}}"]
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.JoinedStr):
            parts = [
                self.render(value, depth + 1)
                if isinstance(value, ast.Constant)
                else [f"{{{ast.unparse(value.value)}}}"]
                for value in node.values
            ]
            return _joined(parts)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return _joined([self.render(node.left, depth + 1), self.render(node.right, depth + 1)])
        if isinstance(node, ast.IfExp):
            return _unique(self.render(node.body, depth + 1) + self.render(node.orelse, depth + 1))
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            return _unique([t for value in node.values for t in self.render(value, depth + 1)])
        if isinstance(node, ast.Name):
            return self._name(node, depth)
        if isinstance(node, ast.Call):
            return self._call(node, depth)
        return [f"{{{ast.unparse(node)}}}"]

    def _name(self, node: ast.Name, depth: int) -> list[str]:
        values = _assigned(_scope_of(node), node.id) or _assigned(self.tree, node.id, top_only=True)
        if values:
            return _unique([t for value in values for t in self.render(value, depth + 1)])
        imported = _imported_from(self.tree, node.id)
        if imported is not None:
            path, name = imported
            values = _assigned(_tree(path), name, top_only=True)
            if values:
                renderer = _Renderer(path)
                return _unique([t for value in values for t in renderer.render(value, depth + 1)])
        return [f"{{{node.id}}}"]

    def _call(self, node: ast.Call, depth: int) -> list[str]:
        name = _called_name(node)
        if isinstance(node.func, ast.Name):
            for function in self.tree.body:
                if isinstance(function, ast.FunctionDef) and function.name == name:
                    returns = [r.value for r in ast.walk(function) if isinstance(r, ast.Return) and r.value]
                    return _unique([t for value in returns for t in self.render(value, depth + 1)])
        if name in ("did_you_mean", "_hint"):  # "did you mean ...? (otherwise)", or otherwise alone
            otherwise = node.args[2] if name == "did_you_mean" and len(node.args) > 2 else None
            otherwise = node.args[1] if name == "_hint" and len(node.args) > 1 else otherwise
            for given in node.keywords:
                if given.arg == "otherwise":
                    otherwise = given.value
            if otherwise is not None:
                return self.render(otherwise, depth + 1)
        if name == "str" and len(node.args) == 1:
            return self.render(node.args[0], depth + 1)
        return [f"{{{ast.unparse(node)}}}"]


def _joined(parts: list[list[str]]) -> list[str]:
    combos = itertools.islice(itertools.product(*parts), TEMPLATES_PER_SITE_MAX)
    return _unique(["".join(combo) for combo in combos])


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _scope_of(node: ast.AST) -> ast.AST:
    while not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        node = node.parent  # type: ignore[attr-defined]
    return node


def _assigned(scope: ast.AST, name: str, top_only: bool = False) -> list[ast.AST]:
    """The expressions assigned to `name` in the scope (a tuple unpacked item by item)."""
    found: list[ast.AST] = []
    nodes = scope.body if top_only else ast.walk(scope)  # type: ignore[attr-defined]
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                found += _matching(target, node.value, name)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            found += _matching(node.target, node.value, name)
    return found


def _matching(target: ast.AST, value: ast.AST, name: str) -> list[ast.AST]:
    if isinstance(target, ast.Name):
        return [value] if target.id == name else []
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
        return [v for t, v in zip(target.elts, value.elts, strict=True) for v in _matching(t, v, name)]
    return []


def _imported_from(tree: ast.Module, name: str) -> tuple[Path, str] | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    path = _module_path(node.module)
                    if path is not None:
                        return path, alias.name
    return None


@lru_cache(maxsize=1)
def hint_sites() -> tuple[Site, ...]:
    """Every (file, line, template) of a hint in bunzai outside bunzai/cli."""
    sites: list[Site] = []
    for path in sources():
        renderer = _Renderer(path)
        shown = str(path.relative_to(ROOT.parent))
        for expression in _hint_expressions(renderer.tree):
            for template in renderer.render(expression):
                sites.append(Site(shown, expression.lineno, template))
    return tuple(dict.fromkeys(sites))
