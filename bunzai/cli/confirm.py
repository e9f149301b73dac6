"""Asking on the terminal: y or Enter says yes; n, d or Escape says no.

The question goes to the controlling terminal (/dev/tty), not stdin, because the draft
itself usually arrives on stdin through a pipe. With no terminal there is nobody to ask:
the caller refuses unless --yes was given.
"""

from __future__ import annotations

import os
import sys

from bunzai.errors import BunzaiError

YES = {"y", "Y", "\r", "\n"}
NO = {"n", "N", "d", "D", "\x1b", "\x03", "\x04"}


def open_terminal() -> int | None:
    try:
        return os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return None


def require_terminal(action: str) -> int:
    fd = open_terminal()
    if fd is None:
        raise BunzaiError(
            "confirmation_required",
            f"{action} needs a confirmation and there is no terminal to ask on; nothing was written",
            "pass --yes to confirm without asking",
        )
    return fd


def ask(fd: int, card: str, question: str) -> bool:
    """Show `card`, ask `question` on the terminal `fd`; True for yes."""
    os.write(fd, (card + "\n" + question + " [Y/n] ").encode("utf-8", "replace"))
    while True:
        key = _read_key(fd)
        if key in YES:
            os.write(fd, b"yes\n")
            return True
        if key in NO or key == "":
            os.write(fd, b"no\n")
            return False


def _read_key(fd: int) -> str:
    try:
        import termios
        import tty

        old = termios.tcgetattr(fd)
    except (ImportError, OSError, Exception):  # not a real tty: read a line instead
        data = os.read(fd, 64).decode("utf-8", "replace")
        return data[:1]
    try:
        tty.setraw(fd)
        return os.read(fd, 1).decode("utf-8", "replace")
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        sys.stderr.flush()
