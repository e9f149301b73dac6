"""Group commit: the writes of one batch window made durable together (`bunzai apply`).

Written alone, a piece costs an fsync of its file, of its folder and of the change log. In a
batch, files are written to their temp names without an fsync each; `sync_data` then makes
all of them durable with one `syncfs` of the studio's file system, before any of them takes
its final name; `commit` makes the new names and the change log durable with one more. So a
window of hundreds of pieces costs two syncs, and a caller hands out a window's receipts only
after `commit`: a receipt never says applied for a write that is not durable.

Where `syncfs` is missing (not Linux), every file is fsynced as it is written and `commit`
fsyncs each touched folder and the change log once per window.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.store.atomic import fsync_dir


def writers_lock(root: Path, mode: int) -> int | None:
    """An fd holding a `mode` flock on `<root>/.bunzai/` (writers: shared; doctor: exclusive),
    waiting up to `limits.LOCK_TIMEOUT_SECONDS`; None when the studio has no such folder."""
    try:
        fd = os.open(root / ".bunzai", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    deadline = time.monotonic() + limits.LOCK_TIMEOUT_SECONDS
    while True:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise BunzaiError(
                    "lock_timeout",
                    f"another bunzai process held the studio for over {limits.LOCK_TIMEOUT_SECONDS:g} s",
                    "try again when it is done",
                ) from None
            time.sleep(limits.LOCK_POLL_SECONDS)


def _load_syncfs() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        syncfs = libc.syncfs
    except (OSError, AttributeError):
        return None
    syncfs.argtypes = [ctypes.c_int]
    syncfs.restype = ctypes.c_int
    return syncfs


_SYNCFS = _load_syncfs()


class Batch:
    """Deferred syncs of one studio's writes; see the module docstring.

    While open, a batch holds a shared `flock` on the studio's `.bunzai/` folder: `bunzai
    doctor --repair` takes it exclusively before it removes temp files and unreferenced
    assets, so it never sweeps what a running apply has staged but not yet landed.
    """

    def __init__(self, root: os.PathLike[str]) -> None:
        self.root = Path(root)
        self.writing = writers_lock(self.root, fcntl.LOCK_SH)
        self.defers_data = _SYNCFS is not None
        self.folders: set[Path] = set()
        self.syncs: list[Callable[[], None]] = []
        self.unsynced = False

    def wrote(self) -> None:
        """A file's bytes were written without an fsync (`defers_data`)."""
        self.unsynced = True

    def touched(self, folder: Path) -> None:
        self.folders.add(Path(folder))

    def on_commit(self, sync: Callable[[], None]) -> None:
        if sync not in self.syncs:
            self.syncs.append(sync)

    def sync_data(self) -> None:
        """Make every file written so far durable (before any takes its final name)."""
        if self.unsynced:
            self._syncfs()
            self.unsynced = False

    def commit(self) -> None:
        """Make every new name, and the change log, durable."""
        folders, self.folders = sorted(self.folders), set()
        syncs, self.syncs = self.syncs, []
        if self.defers_data:
            if folders or syncs or self.unsynced:
                self._syncfs()
            self.unsynced = False
            return
        for folder in folders:
            fsync_dir(folder)
        for sync in syncs:
            sync()

    def close(self) -> None:
        if self.writing is not None:
            os.close(self.writing)  # drops the shared lock
            self.writing = None

    def _syncfs(self) -> None:
        fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            if _SYNCFS(fd) != 0:
                error = ctypes.get_errno()
                raise OSError(error, os.strerror(error), os.fspath(self.root))
        finally:
            os.close(fd)
