"""A `|` inside a code span in a table row splits the cell (GitHub's tables split before they
read code spans), so the rest of the cell is lost: it must be written `\\|`."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")


def unescaped_pipes(line: str) -> list[str]:
    """The code spans of a table row that hold a `|` not written `\\|`."""
    return [m.group(2) for m in _SPAN.finditer(line) if re.search(r"(?<!\\)\|", m.group(2))]


def test_the_check_tells_escaped_from_unescaped():
    assert unescaped_pipes("| `a|b` | x |") == ["a|b"]
    assert unescaped_pipes("| `a\\|b` | `` $` `` | x |") == []


def test_no_table_cell_of_the_docs_is_cut_by_a_pipe_in_code():
    found = []
    for page in sorted([*(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]):
        fenced = False
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif not fenced and line.lstrip().startswith("|"):
                found += [f"{page.relative_to(ROOT)}:{number}: {span}" for span in unescaped_pipes(line)]
    assert found == []
