"""Per-path locks: `with path_lock(studio, "character/ada"): ...`. Linux only (fcntl).

A lock is an exclusive `flock` on `.bunzai/locks/<name>.lock`, where the name is a readable
slug of the key plus a hash of it (so distinct keys never share a file). The kernel drops
the lock when its holder dies, so a killed writer never leaves the studio locked. Lock files
are never deleted: deleting one while another process waits on it would split the lock.

Waiting polls every `limits.LOCK_POLL_SECONDS` up to `limits.LOCK_TIMEOUT_SECONDS`, then
fails with `lock_timeout`. Locks are not re-entrant: taking the same key twice in one
process waits on itself. Keys are taken in one order everywhere: a piece, then a graveyard
entry, then the change log.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.store.studio import Studio

_UNSAFE = re.compile(r"[^a-z0-9._-]+", re.ASCII)


def lock_file_name(key: str) -> str:
    """`<slug>-<hash>.lock`: readable, safe as a file name, one per key."""
    slug = _UNSAFE.sub("_", key.lower()).strip("._-")[:60] or "lock"
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{slug}-{digest}.lock"


def lock_path(studio: Studio, key: str) -> Path:
    return studio.locks_dir / lock_file_name(key)


@contextmanager
def path_lock(studio: Studio, key: str) -> Iterator[None]:
    """Hold the exclusive lock named `key` for the duration of the block."""
    path = lock_path(studio, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    try:
        deadline = time.monotonic() + limits.LOCK_TIMEOUT_SECONDS
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise BunzaiError(
                        "lock_timeout",
                        f"another writer held the lock on {key} for over "
                        f"{limits.LOCK_TIMEOUT_SECONDS:g} s",
                        hint="try again; if it persists, look for a stuck bunzai process",
                    ) from None
                time.sleep(limits.LOCK_POLL_SECONDS)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
