"""Every refusal says what to do next: each `BunzaiError(...)` in the package is given a hint.

docs/mcp.md ("Refusals") and docs/cli.md promise a code, a message and a hint on every error, for a
person at a shell and an agent over MCP alike. A call with no hint (the third argument, or `hint=`),
or with an empty string literal as its hint, breaks that promise where it is written.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bunzai"


def _hint(call: ast.Call) -> ast.expr | None:
    if len(call.args) >= 3:
        return call.args[2]
    return next((keyword.value for keyword in call.keywords if keyword.arg == "hint"), None)


def hintless_refusals(root: Path) -> list[str]:
    """The places ("file:line") that construct a BunzaiError without a hint, or with an empty one."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "BunzaiError"):
                continue
            hint = _hint(node)
            if hint is None or (isinstance(hint, ast.Constant) and hint.value == ""):
                found.append(f"{path.relative_to(root.parent).as_posix()}:{node.lineno}")
    return found


def test_every_bunzai_error_is_given_a_hint():
    missing = hintless_refusals(PACKAGE)
    assert not missing, "BunzaiError without a hint (say what to do next):\n" + "\n".join(missing)


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
    assert hintless_refusals(package) == ["bunzai/sample.py:3", "bunzai/sample.py:4"]
