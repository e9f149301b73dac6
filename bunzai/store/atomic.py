"""File writes that never show a partial file under its final name. Linux only.

- `write_new(path, data)`: create-only. The bytes go to a temp file in the same folder,
  which is fsynced and then hard-linked to the final name: `link` fails when the name is
  taken, so a create can never overwrite, even against a writer that ignores bunzai's locks.
- `replace_file(path, data)`: the temp file is renamed over the final name (`os.replace`).

Both make the new name durable by fsyncing the folder afterwards, or, given a `Batch`,
leave that fsync to the batch's `commit` (one fsync per folder per batch window: the group
commit of `bunzai apply`). Temp files are named `.<name>.<random>.tmp`: hidden, and not
ending in the final extension, so listings and reads skip them; they are removed on any
failure (a SIGKILL can still leave one behind: `bunzai doctor --repair` sweeps those).
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


class Batch:
    """Folder fsyncs (and the change log's fsync) deferred to the end of a batch window.

    Every file's own bytes are still fsynced before its name appears; what a batch defers is
    making the names durable, once per folder, in `commit`. A caller reports a write as done
    only after `commit` returns.
    """

    def __init__(self) -> None:
        self.folders: set[Path] = set()
        self.syncs: list = []  # callables run at commit (the change log's fsync)

    def touched(self, folder: Path) -> None:
        self.folders.add(Path(folder))

    def on_commit(self, sync) -> None:
        if sync not in self.syncs:
            self.syncs.append(sync)

    def commit(self) -> None:
        folders, self.folders = sorted(self.folders), set()
        for folder in folders:
            fsync_dir(folder)
        syncs, self.syncs = self.syncs, []
        for sync in syncs:
            sync()


def settle(folder: Path, batch: Batch | None) -> None:
    """Make a new name in `folder` durable now, or at the batch's commit."""
    if batch is None:
        fsync_dir(folder)
    else:
        batch.touched(folder)


def write_temp(path: Path, data: bytes) -> Path:
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
        unlink_quietly(temp)
        raise
    os.close(fd)
    return temp


def unlink_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def occupied_error(path: Path) -> BunzaiError:
    return BunzaiError("occupied", f"{path.name} already exists in {path.parent}",
                       hint="choose another name; nothing was written")


def link_temp(temp: Path, path: Path) -> None:
    """Give the temp file its final name, create-only (occupied when taken); the temp goes."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise occupied_error(path) from None
    finally:
        unlink_quietly(temp)


def rename_temp(temp: Path, path: Path) -> None:
    """Move the temp file over the final name in one rename."""
    try:
        os.replace(temp, path)
    except BaseException:
        unlink_quietly(temp)
        raise


def write_new(path: Path, data: bytes, batch: Batch | None = None) -> None:
    """Create `path` holding `data`; BunzaiError occupied when the name is taken."""
    path = Path(path)
    link_temp(write_temp(path, data), path)
    settle(path.parent, batch)


def replace_file(path: Path, data: bytes, batch: Batch | None = None) -> None:
    """Write `data` to `path`, replacing what is there in one rename."""
    path = Path(path)
    rename_temp(write_temp(path, data), path)
    settle(path.parent, batch)


def remove_file(path: Path, batch: Batch | None = None) -> None:
    """Unlink `path` and fsync its folder (FileNotFoundError when it is gone)."""
    path = Path(path)
    os.unlink(path)
    settle(path.parent, batch)
