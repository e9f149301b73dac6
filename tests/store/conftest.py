"""Fixtures for the store tests: a fresh studio, a snapshot of a folder tree, and a guard
that fails the test when code touches the file system."""

from __future__ import annotations

import builtins
import fcntl
import io
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bunzai.errors import BunzaiError
from bunzai.store.studio import Studio, init_studio


@pytest.fixture
def studio(tmp_path: Path) -> Studio:
    made, _ = init_studio(tmp_path / "studio")
    return made


def tree_snapshot(root: Path, *, locks: bool = False) -> dict[str, bytes | None]:
    """Every path under `root` (folders as None, files as their bytes). Lock files are
    bookkeeping that outlives a write, so they are left out unless `locks`."""
    snapshot: dict[str, bytes | None] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            snapshot[os.path.relpath(os.path.join(folder, name), root)] = None
        for name in files:
            path = os.path.join(folder, name)
            if not locks and name.endswith(".lock") and os.path.basename(folder) == "locks":
                continue
            with open(path, "rb") as handle:
                snapshot[os.path.relpath(path, root)] = handle.read()
    return snapshot


_FILE_CALLS = (
    "open",
    "stat",
    "lstat",
    "mkdir",
    "makedirs",
    "scandir",
    "listdir",
    "link",
    "replace",
    "rename",
    "unlink",
    "remove",
    "rmdir",
    "access",
    "fsync",
)


@contextmanager
def no_file_access(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Inside the block, any file-system call raises AssertionError."""

    def forbidden(name: str) -> Callable[..., object]:
        def call(*args: object, **kwargs: object) -> object:
            raise AssertionError(f"file operation {name}{args!r} before validation")

        return call

    with monkeypatch.context() as patch:
        for name in _FILE_CALLS:
            patch.setattr(os, name, forbidden(f"os.{name}"))
        patch.setattr(builtins, "open", forbidden("open"))
        patch.setattr(io, "open", forbidden("io.open"))
        patch.setattr(fcntl, "flock", forbidden("flock"))
        yield


def refusal(call: Callable[[], object], monkeypatch: pytest.MonkeyPatch) -> BunzaiError:
    """The BunzaiError `call` raises without touching a file (fails the test otherwise)."""
    with no_file_access(monkeypatch):
        try:
            call()
        except BunzaiError as error:
            return error
    raise AssertionError("expected a BunzaiError refusal")


@pytest.fixture
def snapshot() -> Callable[[Path], dict[str, bytes | None]]:
    return tree_snapshot


@pytest.fixture
def refused(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[], object]], BunzaiError]:
    return lambda call: refusal(call, monkeypatch)
