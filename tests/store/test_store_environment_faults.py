"""Environment faults (full disk, read-only file system, permission denied) are coded
refusals with nothing half-written, not internal errors (issue 17). Faults are injected
into the store's writes, since tests cannot fill or remount the real disk."""

from __future__ import annotations

import errno
import json
import os

import pytest

from bunzai.cli.entry import run
from bunzai.store import atomic
from bunzai.store.pieces import create_piece


@pytest.fixture
def studio_env(studio, monkeypatch):
    monkeypatch.setenv("BUNZAI_STUDIO", str(studio.root))
    return studio


def failing(monkeypatch, code: int) -> None:
    """Every file the store creates fails with `code` (as a full or read-only disk would)."""
    real_open = os.open

    def open_(path, flags, *args, **kwargs):
        if flags & os.O_CREAT and str(path).endswith(".tmp"):
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(atomic.os, "open", open_)


def files_of(root) -> set[str]:
    return {os.path.relpath(os.path.join(folder, name), root) for folder, _, names in os.walk(root) for name in names}


@pytest.mark.parametrize(
    ("fault", "code"),
    [
        (errno.ENOSPC, "disk_full"),
        (errno.EROFS, "studio_read_only"),
        (errno.EACCES, "permission_denied"),
        (errno.EDQUOT, "disk_full"),
    ],
)
def test_apply_answers_an_environment_fault_with_a_coded_receipt(
    studio_env, tmp_path, monkeypatch, capsys, fault, code
) -> None:
    draft = tmp_path / "draft.json"
    assert run(["create", "character", "--input", '{"name": "Ada"}']) == 0
    draft.write_text(capsys.readouterr().out)
    before = files_of(studio_env.root)
    failing(monkeypatch, fault)
    assert run(["apply", "--yes", str(draft)]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert (answer["status"], answer["reason"]) == ("failed", code)
    assert files_of(studio_env.root) == before


def test_a_command_that_writes_outside_apply_gives_the_coded_error(studio_env, monkeypatch, capsys) -> None:
    create_piece(studio_env, {"kind": "character", "id": "ada", "name": "Ada"})
    before = files_of(studio_env.root)
    failing(monkeypatch, errno.EROFS)
    assert run(["bury", "character/ada"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "studio_read_only"
    assert files_of(studio_env.root) == before
