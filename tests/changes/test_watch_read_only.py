"""`changes` and `wait` in a studio this process may not write (a read-only mount, no write
rights): the feed is read all the same, the cursor is left and the answer says so, and a read
that must move the cursor is refused with a code. The unit tests simulate the refusals (so
they run as root too); the end-to-end ones make the studio really unwritable."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
from testkit import bunzai_executable

from bunzai.changes.watch import studio_changes, studio_wait
from bunzai.errors import BunzaiError
from bunzai.store import locks
from bunzai.store.canon import revision_of
from bunzai.store.changelog import annotated, append_change
from bunzai.store.cursors import cursor_path
from bunzai.store.feed import entries_from, landed
from bunzai.store.locks import path_lock
from bunzai.store.pieces import create_piece, piece_lock_key
from bunzai.store.studio import Studio, init_studio

_WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
CODES = {errno.EACCES: "permission_denied", errno.EROFS: "studio_read_only"}


@pytest.fixture
def studio(tmp_path: Path) -> Studio:
    made, _ = init_studio(tmp_path / "studio")
    return made


def refuse_writes(monkeypatch, studio: Studio, code: int) -> None:
    """Every write under the studio fails with `code`, as a read-only mount or a folder without
    write rights would fail it, whoever runs the test (root included)."""
    root = str(studio.root)

    def inside(path) -> bool:
        return os.path.abspath(os.fspath(path)).startswith(root)

    def refused(path):
        return OSError(code, os.strerror(code), os.fspath(path))

    real_open, real_mkdir, real_replace, real_rename, real_unlink = os.open, os.mkdir, os.replace, os.rename, os.unlink

    def open_(path, flags, *args, **kwargs):
        if flags & _WRITING and inside(path):
            raise refused(path)
        return real_open(path, flags, *args, **kwargs)

    def guarded(real):
        def call(path, *args, **kwargs):
            if inside(path):
                raise refused(path)
            return real(path, *args, **kwargs)

        return call

    monkeypatch.setattr(os, "open", open_)
    for name, real in (
        ("mkdir", real_mkdir),
        ("replace", real_replace),
        ("rename", real_rename),
        ("unlink", real_unlink),
    ):
        monkeypatch.setattr(os, name, guarded(real))


def files_of(root) -> dict[str, bytes]:
    found = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            found[os.path.relpath(path, root)] = Path(path).read_bytes()
    return found


def write(studio: Studio, session: str, piece_id: str) -> int:
    with annotated(session=session):
        return create_piece(studio, {"kind": "character", "id": piece_id, "name": piece_id}).seq


@pytest.mark.parametrize("fault", [errno.EACCES, errno.EROFS], ids=["no-rights", "read-only-mount"])
def test_a_read_only_studio_is_read_from_the_cursor_which_stays(studio: Studio, monkeypatch, fault) -> None:
    studio_changes(studio, "agent")  # the cursor, saved while the studio could be written
    write(studio, "person", "ada")
    write(studio, "person", "bob")
    cursor_before = cursor_path(studio, "agent").read_bytes()
    refuse_writes(monkeypatch, studio, fault)
    before = files_of(studio.root)
    doc = studio_changes(studio, "agent")
    assert doc["basis"] == "since-cursor" and [item["seq"] for item in doc["items"]] == [1, 2]
    assert doc["cursor_saved"] is False and doc["next"] == 2
    (warning,) = doc["warnings"]
    assert warning.startswith(CODES[fault]) and "--since 2" in warning
    assert files_of(studio.root) == before and cursor_path(studio, "agent").read_bytes() == cursor_before
    again = studio_changes(studio, "agent")  # the cursor did not move: the same changes again
    assert [item["seq"] for item in again["items"]] == [1, 2]
    assert studio_changes(studio, "agent", since=doc["next"])["items"] == []


def test_a_first_read_of_a_read_only_studio_says_where_to_read_on_from(studio: Studio, monkeypatch) -> None:
    write(studio, "person", "ada")
    refuse_writes(monkeypatch, studio, errno.EACCES)
    doc = studio_changes(studio, "agent")
    assert doc["basis"] == "first-read" and doc["next"] == 1 and doc["cursor_saved"] is False
    assert "--since 1" in doc["warnings"][0]
    assert not cursor_path(studio, "agent").exists()


@pytest.mark.parametrize("fault", [errno.EACCES, errno.EROFS], ids=["no-rights", "read-only-mount"])
def test_a_read_that_must_save_the_cursor_is_refused_with_a_code(studio: Studio, monkeypatch, fault) -> None:
    studio_changes(studio, "agent")
    write(studio, "person", "ada")
    refuse_writes(monkeypatch, studio, fault)
    before = files_of(studio.root)
    with pytest.raises(BunzaiError) as caught:
        studio_changes(studio, "agent", save=True)
    assert caught.value.code == CODES[fault] and "agent" in caught.value.message and "--since" in caught.value.hint
    with pytest.raises(BunzaiError) as first:
        studio_changes(studio, "newcomer", save=True)
    assert first.value.code == CODES[fault]
    assert files_of(studio.root) == before


def test_saving_is_asked_for_and_refused_only_where_it_is_needed(studio: Studio) -> None:
    studio_changes(studio, "agent")
    write(studio, "person", "ada")
    peek = studio_changes(studio, "agent", save=False)
    assert peek["count"] == 1 and peek["cursor_saved"] is False and "warnings" not in peek
    assert json.loads(cursor_path(studio, "agent").read_text())["seq"] == 0
    saved = studio_changes(studio, "agent", save=True)
    assert saved["count"] == 1 and saved["cursor_saved"] is True
    assert json.loads(cursor_path(studio, "agent").read_text())["seq"] == 1
    with pytest.raises(BunzaiError) as caught:
        studio_changes(studio, "agent", since=0, save=True)
    assert caught.value.code == "invalid_input"
    assert studio_changes(studio, "agent", since=0)["cursor_saved"] is False


def test_a_record_whose_write_never_landed_is_judged_without_taking_a_lock(studio: Studio, monkeypatch) -> None:
    """The reader waits on a writer's lock only through a file the writer made: a record left by a
    killed writer (its lock file gone) is judged from the disk, writing nothing."""
    write(studio, "person", "ada")
    append_change(studio, kind="character", id="ghost", revision="e" * 64, op="create")  # its writer died
    refuse_writes(monkeypatch, studio, errno.EACCES)
    before = files_of(studio.root)
    doc = studio_changes(studio, "agent", since=0)
    assert [item["ref"] for item in doc["items"]] == ["character/ada"] and doc["not_landed"] == 1
    waited = studio_wait(studio, changed_since=1, timeout=0)
    assert waited["met"] is False and waited["head"] == 2
    assert studio_wait(studio, changed_since=0, timeout=0)["change"]["seq"] == 1
    assert files_of(studio.root) == before


def test_a_writer_mid_way_is_still_waited_for_in_a_studio_the_reader_cannot_write(studio: Studio, monkeypatch) -> None:
    first = create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada"})
    holder = path_lock(studio, piece_lock_key("character", "ada"))
    holder.__enter__()  # a writer that logged its intent and has not renamed yet
    append_change(studio, kind="character", id="ada", revision=revision_of(b"x"), op="update", base=first.revision)
    blocked = threading.Event()
    real_flock = locks.fcntl.flock

    def flock(fd, operation):
        try:
            return real_flock(fd, operation)
        except BlockingIOError:
            blocked.set()  # the reader found the holder's lock taken
            raise

    monkeypatch.setattr(locks.fcntl, "flock", flock)
    path = studio.piece_path("character", "ada")
    temp = path.with_name("ada.tmp")
    temp.write_bytes(b"x")
    refuse_writes(monkeypatch, studio, errno.EROFS)
    verdicts: list = []
    reader = threading.Thread(target=lambda: verdicts.extend(landed(studio, list(entries_from(studio)))))
    reader.start()
    try:
        assert blocked.wait(30), "the reader did not wait on the writer's lock"
        monkeypatch.undo()  # the writer may write: it lands, then lets go
        os.replace(temp, path)
    finally:
        monkeypatch.undo()
        holder.__exit__(None, None, None)
        reader.join()
    assert verdicts == [True, True]


# --- end to end: a studio that really cannot be written ---------------------------------


def _works(command: list[str]) -> bool:
    try:
        return subprocess.run(command, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _unwritable(way: str, studio: Path) -> list[str]:
    """The prefix that runs a command which cannot write `studio` (skips where there is none)."""
    if way == "chmod":
        for folder, _, _ in os.walk(studio):
            os.chmod(folder, 0o555)
        if not os.access(studio / ".bunzai" / "cursors", os.W_OK):
            return []  # not root: the modes hold
        # root ignores the modes; as an unprivileged user of a user namespace it may not
        prefix = ["unshare", "--user", "--map-user=1000", "--map-group=1000", "--"]
        check = [*prefix, "sh", "-c", f'test ! -w "{studio}/.bunzai/cursors"']
        if shutil.which("unshare") and _works(check):
            return prefix
        pytest.skip("running as root, where chmod leaves the folders writable, and no user namespace to drop it")
    # a read-only bind mount of the studio over itself, in a private mount namespace
    script = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" && exec "$@"'
    prefix = ["unshare", "--user", "--map-root-user", "--mount", "--", "sh", "-c", script, str(studio)]
    if not (shutil.which("unshare") and _works([*prefix, "sh", "-c", f'! touch "{studio}/probe" 2>/dev/null'])):
        pytest.skip("no user and mount namespaces here to mount the studio read-only")
    return prefix


@pytest.mark.parametrize("way", ["chmod", "read-only mount"])
def test_changes_and_wait_read_a_studio_that_cannot_be_written(bunzai, way) -> None:
    bunzai("changes", "--session", "agent", check=True)
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    before = files_of(bunzai.studio)
    prefix = _unwritable(way, bunzai.studio)

    def run(*args: str):
        proc = subprocess.run(
            [*prefix, *bunzai_executable(), *args], capture_output=True, env=bunzai.env(), cwd=bunzai.cwd, timeout=60
        )
        return proc.returncode, json.loads(proc.stdout)

    try:
        code, doc = run("changes", "--session", "agent")
        assert code == 0 and [item["ref"] for item in doc["items"]] == ["character/ada"]
        expected = "permission_denied" if way == "chmod" else "studio_read_only"
        assert doc["cursor_saved"] is False and doc["warnings"][0].startswith(expected)
        code, doc = run("wait", "--changed-since", "0", "--timeout", "0")
        assert code == 0 and doc["met"] is True and doc["change"]["ref"] == "character/ada"
        code, doc = run("changes", "--session", "agent", "--save-cursor")
        assert code == 1 and doc["error"]["code"] == expected
    finally:
        for folder, _, _ in os.walk(bunzai.studio):
            os.chmod(folder, 0o755)
    assert files_of(bunzai.studio) == before
