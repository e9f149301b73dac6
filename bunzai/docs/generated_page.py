"""A page of docs/ generated from the code: compare with the committed one, or write it.

docs/limits.md (from bunzai/limits.py) and docs/mcp-tools.md (from bunzai/tools/) are made
this way; `make check` runs their checks, `make pages` writes them.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from bunzai.errors import BunzaiError
from bunzai.limits import GENERATED_DIFF_MAX_LINES

DOCS = Path(__file__).resolve().parents[2] / "docs"


def check_page(path: Path, fresh: str, *, write: bool, source: str, command: str) -> str:
    """ "ok", "written" or "absent" (no docs/ folder: an installed copy); out_of_date when it differs."""
    if not path.parent.is_dir():
        return "absent"
    committed = path.read_text(encoding="utf-8") if path.is_file() else ""
    if fresh == committed:
        return "ok"
    if write:
        path.write_text(fresh, encoding="utf-8")
        return "written"
    raise out_of_date(path, committed, fresh, source, f"run `{command}` and commit the result")


def out_of_date(path: Path, committed: str, fresh: str, source: str, hint: str) -> BunzaiError:
    """The out_of_date error for a generated file that differs from `source`: the unified diff
    from the committed text to the fresh one, cut at `limits.GENERATED_DIFF_MAX_LINES` lines."""
    diff = list(
        difflib.unified_diff(
            committed.splitlines(),
            fresh.splitlines(),
            f"{path.name} (committed)",
            f"{path.name} (from {source})",
            lineterm="",
        )
    )
    shown = diff[:GENERATED_DIFF_MAX_LINES]
    if len(diff) > GENERATED_DIFF_MAX_LINES:
        shown.append(f"... {len(diff) - GENERATED_DIFF_MAX_LINES} more diff lines")
    return BunzaiError("out_of_date", f"{path.name} differs from {source}:\n" + "\n".join(shown), hint, diff=shown)


def main(render, path: Path, source: str, command: str) -> int:
    """`python -m ... [--check|--write]`: print the status as JSON; exit 1 when out of date."""
    import json
    import sys

    write = "--write" in sys.argv[1:]
    try:
        status = check_page(path, render(), write=write, source=source, command=command)
    except BunzaiError as error:
        sys.stdout.write(json.dumps(error.to_json()["error"] | {"details": None}) + "\n")
        sys.stderr.write(f"bunzai: {error.code}: {path.name} is out of date ({error.hint})\n")
        return 1
    sys.stdout.write(json.dumps({"page": f"docs/{path.name}", "status": status}) + "\n")
    return 0
