"""File writes that never show a partial file under its final name. Linux only.

- `write_new(path, data)`: create-only. The bytes go to a temp file in the same folder,
  which is fsynced and then hard-linked to the final name: `link` fails when the name is
  taken, so a create can never overwrite, even against a writer that ignores bunzai's locks.
- `replace_file(path, data)`: the temp file is renamed over the final name (`os.replace`).

Both fsync the folder afterwards so the new name survives a power cut. Temp files are named
`.<name>.<random>.tmp`: hidden, and not ending in the final extension, so listings and
reads skip them; they are removed on any failure (a SIGKILL can still leave one behind,
which is why readers ignore them).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from bunzai.errors import BunzaiError

TEMP_SUFFIX = ".tmp"


def is_temp_name(name: str) -> bool:
    """Whether a file name is one of our temp files (`.<name>.<random>.tmp`)."""
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


def fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(path: Path, data: bytes) -> Path:
    """A fsynced temp file beside `path` holding `data`."""
    temp = path.with_name(f".{path.name}.{secrets.token_hex(8)}{TEMP_SUFFIX}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        _unlink_quietly(temp)
        raise
    os.close(fd)
    return temp


def _unlink_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def write_new(path: Path, data: bytes) -> None:
    """Create `path` holding `data`; BunzaiError occupied when the name is taken."""
    path = Path(path)
    temp = _write_temp(path, data)
    try:
        os.link(temp, path)
    except FileExistsError:
        raise BunzaiError(
            "occupied",
            f"{path.name} already exists in {path.parent}",
            hint="choose another name; nothing was written",
        ) from None
    finally:
        _unlink_quietly(temp)
    fsync_dir(path.parent)


def replace_file(path: Path, data: bytes) -> None:
    """Write `data` to `path`, replacing what is there in one rename."""
    path = Path(path)
    temp = _write_temp(path, data)
    try:
        os.replace(temp, path)
    except BaseException:
        _unlink_quietly(temp)
        raise
    fsync_dir(path.parent)


def remove_file(path: Path) -> None:
    """Unlink `path` and fsync its folder (FileNotFoundError when it is gone)."""
    path = Path(path)
    os.unlink(path)
    fsync_dir(path.parent)
