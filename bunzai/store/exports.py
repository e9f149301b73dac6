"""Export folders: `<studio>/Export/<UTC timestamp> Kit <id>/<file>`, one per export, never reused.

The caller names a piece and a format, never a path: the folder name is made here from
the time and the piece id (a safe slug), and the file name from the id and the format's
extension. The folder is created exclusively (an occupied name is refused, never
replaced), the file is written create-only and synced, and a failed export leaves no
folder behind.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

from bunzai.errors import BunzaiError
from bunzai.store.atomic import fsync_dir, write_new
from bunzai.store.studio import Studio, check_id


def export_stamp(now: datetime | None = None) -> str:
    now = now or datetime.now(timezone.utc)
    return now.strftime("%Y%m%dT%H%M%S%fZ")


def write_export(studio: Studio, piece_id: str, file_name: str, data: bytes, *, now: datetime | None = None) -> Path:
    """Write one exported file into a fresh kit folder; return the file's path."""
    check_id(piece_id)
    if "/" in file_name or "\\" in file_name or "\x00" in file_name or file_name in ("", ".", "..") or not file_name.startswith(piece_id):
        raise BunzaiError("invalid_input", f"export file name {file_name!r} is not <id><extension>")
    studio.writable_dir(studio.export_dir)
    folder = studio.export_dir / f"{export_stamp(now)} Kit {piece_id}"
    try:
        folder.mkdir()
    except FileExistsError:
        raise BunzaiError("occupied", f"{folder.name} already exists; nothing was written", "export again") from None
    try:
        path = folder / file_name
        write_new(path, data)
        fsync_dir(studio.export_dir)
    except BaseException:
        _remove_tree(folder)
        raise
    return path


def _remove_tree(folder: Path) -> None:
    for child in folder.iterdir():
        os.unlink(child)
    folder.rmdir()
