"""Reading files and folders from outside the studio, bounded and without following links."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from bunzai.errors import BunzaiError
from bunzai.limits import FOLDER_PIECE_MAX_BYTES, FOLDER_PIECE_MAX_FILES, FOLDER_WALK_MAX_DEPTH, IMPORT_FILE_MAX_BYTES, WALK_MAX_ENTRIES


def read_file_bytes(path: Path) -> bytes:
    """A file's bytes, refusing folders, missing files and files over the import limit."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise BunzaiError("not_found", f"no file at {path}", "check the path") from None
    if path.is_dir():
        raise BunzaiError("invalid_input", f"{path} is a folder")
    if size > IMPORT_FILE_MAX_BYTES:
        raise BunzaiError("too_large", f"{path} has {size} bytes, over the {IMPORT_FILE_MAX_BYTES}-byte import limit")
    with path.open("rb") as handle:
        return handle.read(IMPORT_FILE_MAX_BYTES + 1)


def walk_files(root: Path, *, max_depth: int = FOLDER_WALK_MAX_DEPTH) -> Iterator[Path]:
    """Regular files under `root`, sorted, skipping symlinks and hidden entries, bounded."""
    seen = 0
    stack: list[tuple[Path, int]] = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as error:
            raise BunzaiError("invalid_input", f"cannot list {folder}: {error.strerror}") from None
        subfolders = []
        for entry in entries:
            seen += 1
            if seen > WALK_MAX_ENTRIES:
                raise BunzaiError("too_large", f"{root} holds more than {WALK_MAX_ENTRIES} entries")
            if entry.name.startswith(".") or entry.is_symlink():
                continue
            if entry.is_dir(follow_symlinks=False):
                if depth < max_depth:
                    subfolders.append((Path(entry.path), depth + 1))
            elif entry.is_file(follow_symlinks=False):
                yield Path(entry.path)
        stack.extend(reversed(subfolders))  # popped in name order


def list_folder(folder: Path) -> tuple[list[Path], list[Path]]:
    """(regular files, subfolders) directly in `folder`, sorted, without symlinks or hidden
    entries. No cap on the count: a walk takes the files one at a time."""
    try:
        with os.scandir(folder) as listing:
            entries = [entry for entry in listing if not entry.name.startswith(".") and not entry.is_symlink()]
    except OSError as error:
        raise BunzaiError("invalid_input", f"cannot list {folder}: {error.strerror}") from None
    entries.sort(key=lambda e: e.name)
    return ([Path(e.path) for e in entries if e.is_file(follow_symlinks=False)],
            [Path(e.path) for e in entries if e.is_dir(follow_symlinks=False)])


def read_folder_files(root: Path) -> dict[str, bytes]:
    """Every regular file directly in `root` (a folder-shaped piece), by name, bounded."""
    files: dict[str, bytes] = {}
    total = 0
    for path in walk_files(root, max_depth=0):
        if len(files) >= FOLDER_PIECE_MAX_FILES:
            raise BunzaiError("too_large", f"{root} holds more than {FOLDER_PIECE_MAX_FILES} files")
        data = read_file_bytes(path)
        total += len(data)
        if total > FOLDER_PIECE_MAX_BYTES:
            raise BunzaiError("too_large", f"{root} holds more than {FOLDER_PIECE_MAX_BYTES} bytes")
        files[path.name] = data
    return files
