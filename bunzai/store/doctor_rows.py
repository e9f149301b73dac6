"""What every check of `bunzai doctor` shares: a problem row, and the files of a folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def problem(check: str, path: Path | str, message: str, **extra: Any) -> dict:
    """A row of the doctor's `problems` (`fixable`: repair may remove the file)."""
    return {"check": check, "path": str(path), "message": message, **extra}


def regular_files(folder: Path) -> Iterator[os.DirEntry]:
    """Regular files directly in `folder` (none when it is missing), symlinks left out."""
    try:
        listing = os.scandir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return
    with listing:
        for entry in listing:
            if entry.is_file(follow_symlinks=False):
                yield entry
