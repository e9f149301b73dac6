"""Export folders: `<studio>/Export/<UTC timestamp> Kit <id>/<file>`, one per export, never reused.

A folder-shaped format (a SillyTavern sprite folder) is written as
`Export/<UTC timestamp> Kit <id>/<folder>/<files>`, each name checked to be a plain name.

The caller names a piece and a format, never a path: the folder name is made here from
the time and the piece id (a safe slug); the file name is the crossing's (the piece id, or
the stem of the file it was imported from, and the format's extension), refused unless it is
one plain file name. The folder is created exclusively (an occupied name is refused, never
replaced), the file is written create-only and synced, and a failed export leaves no
folder behind.
"""

from __future__ import annotations

import os
from datetime import datetime, UTC
from pathlib import Path

from bunzai.errors import BunzaiError
from bunzai.limits import EXPORT_NAME_MAX_BYTES
from bunzai.store.atomic import sync_folder, write_new
from bunzai.store.faults import Unsettled
from bunzai.store.studio import Studio, check_id


def export_stamp(now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    return now.strftime("%Y%m%dT%H%M%S%fZ")


def is_kit_name(name: str) -> bool:
    """Whether `name` is a kit folder's, as the writers below name one: `<export_stamp> Kit <id>`."""
    import re

    return re.fullmatch(r"[0-9]{8}T[0-9]{12}Z Kit .+", name, re.DOTALL) is not None


def write_export(studio: Studio, piece_id: str, file_name: str, data: bytes, *, now: datetime | None = None) -> Path:
    """Write one exported file into a fresh kit folder; return the file's path."""
    check_id(piece_id)
    if not _plain_file_name(file_name):
        raise BunzaiError(
            "invalid_input",
            f"export file name {file_name!r} is not a plain file name",
            "rename it: no / \\ : or control characters, no leading dot or space",
        )
    studio.writable_dir(studio.export_dir)
    folder = studio.export_dir / f"{export_stamp(now)} Kit {piece_id}"
    try:
        folder.mkdir()
    except FileExistsError:
        raise BunzaiError("occupied", f"{folder.name} already exists; nothing was written", "export again") from None
    try:
        path = folder / file_name
        write_new(path, data)
        sync_folder(studio.export_dir, folder)
    except Unsettled as error:  # written, not confirmed durable: taken back, and said so
        raise _taken_back(error, folder) from None
    except BaseException:
        _remove_tree(folder)
        raise
    return path


def write_export_folder(
    studio: Studio, piece_id: str, folder_name: str, files: list[tuple[str, bytes]], *, now: datetime | None = None
) -> Path:
    """Write a folder-shaped export (a sprite folder) into a fresh kit folder:
    `Export/<UTC> Kit <id>/<folder_name>/<file>`; return the inner folder's path."""
    check_id(piece_id)
    for name in [folder_name] + [name for name, _ in files]:
        check_plain_name(name)
    if len({name.lower() for name, _ in files}) != len(files):
        raise BunzaiError(
            "invalid_input",
            "two files of the export differ only in letter case",
            "a folder on Windows or macOS would hold only one of them",
        )
    studio.writable_dir(studio.export_dir)
    kit = studio.export_dir / f"{export_stamp(now)} Kit {piece_id}"
    try:
        kit.mkdir()
    except FileExistsError:
        raise BunzaiError("occupied", f"{kit.name} already exists; nothing was written", "export again") from None
    try:
        folder = kit / folder_name
        folder.mkdir()
        for name, data in files:
            write_new(folder / name, data)
        sync_folder(kit, folder)
        sync_folder(studio.export_dir, kit)
    except Unsettled as error:  # written, not confirmed durable: taken back, and said so
        raise _taken_back(error, kit) from None
    except BaseException:
        _remove_tree(kit)
        raise
    return folder


def _taken_back(error: Unsettled, kit: Path) -> BunzaiError:
    """The refusal of an export whose folder sync the disk failed: its kit folder removed (a failed
    export leaves no folder behind), said of the kit folder; where the disk refuses even that, said too."""
    try:
        _remove_tree(kit)
    except OSError:
        pass
    return error.taken_back(kit, "the export's folder")


def check_plain_name(name: str) -> None:
    """A file or folder name that stays where it is put (the rule of _plain_file_name)."""
    if not _plain_file_name(name):
        raise BunzaiError(
            "invalid_input",
            f"export file name {name!r} is not a plain file name",
            "rename it: no / \\ : or control characters, no leading dot or space",
        )


def _plain_file_name(name: str) -> bool:
    """One file name inside the kit folder: no separators or control characters, no dot files."""
    return (
        bool(name)
        and not name.startswith(".")
        and name.strip() == name
        and not any(ch in name for ch in "/\\:")
        and all(ord(ch) >= 32 and ord(ch) != 127 for ch in name)
        and len(name.encode("utf-8")) <= EXPORT_NAME_MAX_BYTES
    )


def _remove_tree(folder: Path) -> None:
    for child in folder.iterdir():
        if child.is_dir() and not child.is_symlink():
            _remove_tree(child)
        else:
            os.unlink(child)
    folder.rmdir()
