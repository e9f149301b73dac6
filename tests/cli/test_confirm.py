"""`apply` asks on the terminal: y or Enter applies, n/d/Escape discards (a real pty)."""

from __future__ import annotations

import os
import pty
import select
import signal
import time

import pytest

from testkit import bunzai_executable


def run_on_terminal(bunzai, args: list[str], draft_file, key: bytes) -> tuple[int, str]:
    """Run bunzai with a pseudo-terminal as its controlling terminal and press `key`."""
    pid, fd = pty.fork()
    if pid == 0:  # child: the pty is its stdin/stdout/stderr and controlling terminal
        os.execvpe(bunzai_executable()[0], bunzai_executable() + args + [str(draft_file)], bunzai.env())
    seen = b""
    deadline = time.time() + 30
    while b"[Y/n]" not in seen and time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            seen += os.read(fd, 4096)
    os.write(fd, key)
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    done, status = os.waitpid(pid, os.WNOHANG)
    if done == 0:  # still waiting for a key: a hang is a failure, not a stuck suite
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), seen.decode("utf-8", "replace")


@pytest.mark.parametrize("key", [b"y", b"\r"], ids=["y", "enter"])
def test_yes_or_enter_applies(bunzai, tmp_path, key):
    draft = tmp_path / "draft.json"
    draft.write_text(bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout)
    code, screen = run_on_terminal(bunzai, ["apply"], draft, key)
    assert "create character/ada" in screen  # the review card was shown
    assert code == 0
    assert (bunzai.studio / "character" / "ada.json").exists()


@pytest.mark.parametrize("key", [b"n", b"d", b"\x1b"], ids=["n", "d", "escape"])
def test_no_discards_and_writes_nothing(bunzai, tmp_path, key):
    draft = tmp_path / "draft.json"
    draft.write_text(bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout)
    code, screen = run_on_terminal(bunzai, ["apply"], draft, key)
    assert code == 0
    assert '"discarded"' in screen
    assert not (bunzai.studio / "character" / "ada.json").exists()
