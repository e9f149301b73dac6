"""bunzai imports only the standard library, itself, and the packages pyproject.toml declares.

The suite runs with the development extras installed, which bring packages of their own
(import-linter and the MCP SDK bring click, for one), so a module that imports one of those
passes every test here and fails in a user's install. This test reads every import in
bunzai/ and names what a plain `pip install bunzai` would not have. An import guarded by
`except ImportError` (a fallback, such as Python 3.12's `_sha2`) may be absent and is left out.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    """A requirement's distribution name, normalised (PEP 503)."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement).group(0)).lower()


def declared() -> set[str]:
    """The distributions a user's install has: the declared dependencies and what they require
    (pydantic brings pydantic-core, which bunzai imports for its error type)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = {_name(requirement) for requirement in project["dependencies"]}
    for name in list(names):
        for requirement in metadata.requires(name) or []:
            if "extra ==" not in requirement:
                names.add(_name(requirement))
    return names


def _guarded(tree: ast.AST) -> set[int]:
    """Line numbers of imports inside a `try` that catches ImportError (or its subclass)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(handler.type, ast.Name) and handler.type.id in ("ImportError", "ModuleNotFoundError")
            for handler in node.handlers
        ):
            for statement in node.body:
                lines |= {
                    inner.lineno for inner in ast.walk(statement) if isinstance(inner, (ast.Import, ast.ImportFrom))
                }
    return lines


def imported_packages(folder: Path) -> dict[str, set[str]]:
    """Top-level module name -> the files under `folder` that import it (guarded imports left out)."""
    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = _guarded(tree)
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or node.lineno in guarded:
                continue
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                modules = [node.module] if node.level == 0 and node.module else []  # relative: the package's own
            for module in modules:
                found.setdefault(module.split(".")[0], set()).add(path.name)
    return found


def test_bunzai_imports_only_what_its_install_brings():
    owners = metadata.packages_distributions()
    allowed = declared()
    foreign = {
        top: sorted(files)
        for top, files in imported_packages(ROOT / "bunzai").items()
        if top != "bunzai"
        and top not in sys.stdlib_module_names
        and not any(_name(owner) in allowed for owner in owners.get(top, []))
    }
    assert foreign == {}, f"imported, but not a dependency of bunzai: {foreign}"


def test_the_walk_sees_a_plain_import_and_leaves_out_a_guarded_one(tmp_path):
    (tmp_path / "mod.py").write_text(
        "import json\n"
        "def complete():\n    from click.shell_completion import split_arg_string\n"
        "try:\n    from _sha2 import sha256\nexcept ImportError:\n    sha256 = None\n"
        "from . import sibling\n",
        encoding="utf-8",
    )
    assert imported_packages(tmp_path) == {"json": {"mod.py"}, "click": {"mod.py"}}
    assert "click" not in declared()
