"""Every refusal says what to do next: each `BunzaiError(...)` in the package is given a hint.

docs/mcp.md ("Refusals") and docs/cli.md promise a code, a message and a hint on every error, for a
person at a shell and an agent over MCP alike. A call with no hint (the third argument, or `hint=`),
or with an empty string literal as its hint, breaks that promise where it is written.

A helper that builds the error for its callers from its own `hint` parameter (`refuse(message, hint)`
in bunzai/capabilities/common/patching.py, `out_of_date`, `list_at` ...) moves the promise to its
call sites: each call of it (found through the module's imports, so a function of the same name
elsewhere is not taken for it) is checked the same way, with the hint where that helper takes it.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bunzai"


def _hint(call: ast.Call, position: int | None) -> ast.expr | None:
    """The argument in hint position: the `position`-th positional one, or `hint=`."""
    if position is not None and len(call.args) > position:
        return call.args[position]
    return next((keyword.value for keyword in call.keywords if keyword.arg == "hint"), None)


def _is_bunzai_error(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Name) and func.id == "BunzaiError") or (
        isinstance(func, ast.Attribute) and func.attr == "BunzaiError"
    )


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


class _Module:
    def __init__(self, path: Path, root: Path) -> None:
        self.path = path
        self.shown = path.relative_to(root.parent).as_posix()
        self.name = _module_name(path, root)
        self.tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        # local name -> what it stands for ("module.function", or a module), from its defs and imports
        self.names: dict[str, str] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.names.setdefault(node.name, f"{self.name}.{node.name}")
        for node in ast.walk(self.tree):  # imports win over a def of the same name
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    self.names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.names[alias.asname] = alias.name

    def callee(self, call: ast.Call) -> str | None:
        """The qualified name `call` calls (`bunzai.capabilities.common.patching.refuse`), when known."""
        func = call.func
        if isinstance(func, ast.Name):
            return self.names.get(func.id)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in self.names:
            return f"{self.names[func.value.id]}.{func.attr}"
        return None


def _passes_hint_on(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the function builds a BunzaiError whose hint is its own `hint` parameter."""
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and _is_bunzai_error(node):
            hint = _hint(node, 2)
            if isinstance(hint, ast.Name) and hint.id == "hint":
                return True
    return False


def hint_wrappers(modules: list[_Module]) -> dict[str, int | None]:
    """Every function of the package that builds a BunzaiError from its `hint` parameter:
    qualified name -> where its hint argument sits (a position, or None when it is keyword-only)."""
    wrappers: dict[str, int | None] = {}
    for module in modules:
        for node in module.tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or not _passes_hint_on(node):
                continue
            positional = [argument.arg for argument in (*node.args.posonlyargs, *node.args.args)]
            if "hint" in positional:
                wrappers[f"{module.name}.{node.name}"] = positional.index("hint")
            elif any(argument.arg == "hint" for argument in node.args.kwonlyargs):
                wrappers[f"{module.name}.{node.name}"] = None
    return wrappers


def _modules(root: Path) -> list[_Module]:
    return [_Module(path, root) for path in sorted(root.rglob("*.py"))]


def hintless_refusals(root: Path) -> list[str]:
    """The places ("file:line") that construct a BunzaiError, or call a helper that builds one from
    its `hint` (such as `refuse`), without a hint or with an empty one."""
    modules = _modules(root)
    wrappers = hint_wrappers(modules)
    found = []
    for module in modules:
        for node in ast.walk(module.tree):
            if not isinstance(node, ast.Call):
                continue
            if _is_bunzai_error(node):
                position: int | None = 2
            elif module.callee(node) in wrappers:
                position = wrappers[module.callee(node)]  # type: ignore[index]
            else:
                continue
            hint = _hint(node, position)
            if hint is None or (isinstance(hint, ast.Constant) and hint.value == ""):
                found.append((module.shown, node.lineno))
    return [f"{path}:{line}" for path, line in sorted(found)]


def test_every_bunzai_error_is_given_a_hint():
    missing = hintless_refusals(PACKAGE)
    assert not missing, "BunzaiError (or refuse ...) without a hint (say what to do next):\n" + "\n".join(missing)


def test_the_scan_knows_the_helpers_that_wrap_bunzai_error():
    """A scan that missed `refuse` would pass while its calls gave no hint."""
    wrappers = hint_wrappers(_modules(PACKAGE))
    assert wrappers.get("bunzai.capabilities.common.patching.refuse") == 1, wrappers


def test_the_scan_finds_a_missing_and_an_empty_hint(tmp_path):
    package = tmp_path / "bunzai"
    package.mkdir()
    (package / "sample.py").write_text(
        "BunzaiError('not_found', 'no file', 'check the path')\n"
        "BunzaiError('not_found', 'no file', hint='check the path')\n"
        "BunzaiError('not_found', 'no file')\n"
        "BunzaiError('not_found', 'no file', '')\n",
        encoding="utf-8",
    )
    (package / "patching.py").write_text(
        "def refuse(message, hint=''):\n"
        "    return BunzaiError('invalid_input', message, hint)\n"
        "def stale(message, *, hint):\n"
        "    return BunzaiError('stale', message, hint=hint)\n"
        "refuse('no rule', 'list the rules')\n"
        "stale('it moved')\n",
        encoding="utf-8",
    )
    (package / "caller.py").write_text(
        "from bunzai.patching import refuse, stale\n"
        "refuse('no rule', 'list the rules')\n"
        "refuse('no rule', hint='list the rules')\n"
        "refuse('no rule')\n"
        "refuse('no rule', '')\n"
        "refuse('no rule', hint='')\n"
        "stale('it moved', hint='read it again')\n",
        encoding="utf-8",
    )
    (package / "other.py").write_text(  # a function of the same name that builds no BunzaiError
        "def refuse(message, hint=''):\n    return message\nrefuse('fine')\n",
        encoding="utf-8",
    )
    assert hintless_refusals(package) == [
        "bunzai/caller.py:4",
        "bunzai/caller.py:5",
        "bunzai/caller.py:6",
        "bunzai/patching.py:6",
        "bunzai/sample.py:3",
        "bunzai/sample.py:4",
    ]
