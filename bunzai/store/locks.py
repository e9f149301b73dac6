"""Per-path locks: `with path_lock(studio, "character/ada"): ...`. Linux only (fcntl).

A lock is an exclusive `flock` on `.bunzai/locks/<name>.lock`, where the name is a readable
slug of the key plus a hash of it (so distinct keys never share a file). The kernel drops
the lock when its holder dies, so a killed writer never leaves the studio locked.

The holder removes the lock file before it lets go, so no lock file outlives its write (a
studio of 10,000 pieces does not keep 10,000 lock files). A waiter may then hold a lock on a
file that is no longer at the path; after taking the lock it checks that the path still
names the very file it locked, and starts again when it does not. Only a killed writer can
leave a lock file behind; `bunzai doctor` reports it and `--repair` removes it.

Waiting polls every `limits.LOCK_POLL_SECONDS` up to `limits.LOCK_TIMEOUT_SECONDS`, then
fails with `lock_timeout`. Locks are not re-entrant: taking the same key twice in one
process waits on itself. Keys are taken in one order everywhere: a piece, then a graveyard
entry. The change log is locked on its own file (see `changelog`).

A reader that only needs a writer to finish takes `reading_lock`: it locks the holder's file
when there is one and makes none, so it works in a studio it cannot write.
"""

from __future__ import annotations

import fcntl
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.store.studio import Studio

TYPE_CHECKING = False  # pathlib and typing cost 5 and 3 ms to import; `bunzai read` needs neither
if TYPE_CHECKING:
    from pathlib import Path


_UNSAFE = re.compile(r"[^a-z0-9._-]+", re.ASCII)
LOCK_SUFFIX = ".lock"


def lock_file_name(key: str) -> str:
    """`<slug>-<hash>.lock`: readable, safe as a file name, one per key."""
    import hashlib  # here: `bunzai read` imports this module (through the store) and takes no lock

    slug = _UNSAFE.sub("_", key.lower()).strip("._-")[:60] or "lock"
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{slug}-{digest}{LOCK_SUFFIX}"


def lock_path(studio: Studio, key: str) -> Path:
    return studio.locks_dir / lock_file_name(key)


def flock_waiting(fd: int, what: str) -> None:
    """Take an exclusive flock on `fd`, polling until `limits.LOCK_TIMEOUT_SECONDS` (lock_timeout)."""
    deadline = time.monotonic() + limits.LOCK_TIMEOUT_SECONDS
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise BunzaiError(
                    "lock_timeout",
                    f"another writer held the lock on {what} for over {limits.LOCK_TIMEOUT_SECONDS:g} s",
                    hint="try again; if it persists, look for a stuck bunzai process",
                ) from None
            time.sleep(limits.LOCK_POLL_SECONDS)


def _locked_fd(path: Path, key: str, flags: int = os.O_RDWR | os.O_CREAT) -> int:
    """An fd holding the flock of the file that is at `path` now (see the module docstring).
    Without O_CREAT in `flags`, FileNotFoundError once no file is there."""
    while True:
        fd = os.open(path, flags | os.O_CLOEXEC | os.O_NOFOLLOW, 0o666)
        try:
            flock_waiting(fd, key)
            try:
                current = os.stat(path, follow_symlinks=False).st_ino
            except FileNotFoundError:
                current = None
            if current == os.fstat(fd).st_ino:
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the holder before us removed the file: lock the new one


@contextmanager
def path_lock(studio: Studio, key: str) -> Iterator[None]:
    """Hold the exclusive lock named `key` for the duration of the block."""
    path = lock_path(studio, key)
    studio.writable_dir(path.parent)
    fd = _locked_fd(path, key)
    try:
        yield
    finally:
        try:
            os.unlink(path)  # still ours: nobody else can have replaced it while we hold it
        except FileNotFoundError:
            pass
        finally:
            os.close(fd)  # closing drops the flock


@contextmanager
def reading_lock(studio: Studio, key: str) -> Iterator[None]:
    """Hold the lock named `key` for the block if its file is there, and make no file: no file
    means no writer holds the lock (a holder keeps its file at the path until it lets go).
    It writes nothing, so a reader can wait out a writer in a studio it may not write."""
    try:
        fd = _locked_fd(lock_path(studio, key), key, os.O_RDONLY)  # flock needs no write access
    except FileNotFoundError:
        fd = None
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # the file is the holder's to remove, never a reader's
