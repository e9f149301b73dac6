"""No block of code is written twice: no exact copy of more than COPY_LINES lines in the package.

Lines are compared with their indentation stripped and with blank lines, comment-only lines and
import statements left out (modules that do the same kind of work import the same names; that is
not logic written twice), so a copy moved into a deeper block, or a copy with a comment added, still counts. A copy
that is a declarative table (every line data: strings, numbers, keyword arguments, brackets)
is allowed: tables of formats and fields repeat by nature, logic should not.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bunzai"
COPY_LINES = 11  # the issue allows up to 10 identical lines; 11 is a copy

# A line of a table: a literal, a `key: literal` or `name=literal` entry, or a bracket.
_DATA_LINE = re.compile(
    r"""^(?:[)\]}]+[,)\]}]*|"""
    r"""(?:[\w.]+\s*=\s*|["'][^"']*["']\s*:\s*)?(?:[rbuf]*["'].*["']|-?[\d.]+|True|False|None|[\w.]+)?\s*[(\[{]?,?)$"""
)


def _import_lines(source: str) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def _code_lines(path: Path) -> list[tuple[int, str]]:
    source = path.read_text(encoding="utf-8")
    imports = _import_lines(source)
    rows = []
    for number, line in enumerate(source.splitlines(), start=1):
        text = line.strip()
        if text and not text.startswith("#") and number not in imports:
            rows.append((number, text))
    return rows


def _is_table(lines: list[str]) -> bool:
    return all(_DATA_LINE.match(line) for line in lines)


def find_copies(root: Path, size: int = COPY_LINES) -> list[tuple[str, str]]:
    """Pairs of places ("file:line") that start the same run of `size` code lines."""
    first_seen: dict[tuple[str, ...], tuple[Path, int, int]] = {}
    copies = []
    for path in sorted(root.rglob("*.py")):
        rows = _code_lines(path)
        for start in range(len(rows) - size + 1):
            window = tuple(text for _, text in rows[start : start + size])
            seen = first_seen.get(window)
            if seen is None:
                first_seen[window] = (path, start, rows[start][0])
                continue
            seen_path, seen_start, seen_line = seen
            if seen_path == path and start - seen_start < size:
                continue  # a run overlapping itself (a repeated line), not a copy
            if _is_table(list(window)):
                continue
            copies.append((f"{seen_path.relative_to(root)}:{seen_line}", f"{path.relative_to(root)}:{rows[start][0]}"))
    return copies


def test_no_block_is_copied():
    copies = find_copies(PACKAGE)
    assert not copies, "copied blocks (make one serve both): " + ", ".join(f"{a} ~ {b}" for a, b in copies[:20])


def test_the_finder_sees_a_copy(tmp_path):
    block = "\n".join(f"value_{n} = compute({n}, other)" for n in range(COPY_LINES)) + "\n"
    (tmp_path / "a.py").write_text("def one():\n" + "".join("    " + line + "\n" for line in block.splitlines()))
    (tmp_path / "b.py").write_text("# a comment\n\n" + block)
    assert find_copies(tmp_path) == [("a.py:2", "b.py:3")]


def test_the_finder_allows_a_shorter_copy_and_tables(tmp_path):
    short = "\n".join(f"value_{n} = compute({n}, other)" for n in range(COPY_LINES - 1)) + "\n"
    table = "ROWS = [\n" + "".join(f'    "row {n}",\n' for n in range(COPY_LINES)) + "]\n"
    (tmp_path / "a.py").write_text(short + "first = 1\n" + table)
    (tmp_path / "b.py").write_text(short + "second = 2\n" + table)
    assert find_copies(tmp_path) == []


def test_the_finder_leaves_out_imports(tmp_path):
    imports = "from x import (\n" + "".join(f"    name_{n},\n" for n in range(COPY_LINES)) + ")\nimport os\n"
    (tmp_path / "a.py").write_text(imports + "first = compute(1)\n")
    (tmp_path / "b.py").write_text(imports + "second = compute(2)\n")
    assert find_copies(tmp_path) == []
