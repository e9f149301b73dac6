"""Asking on the terminal: y or Enter says yes; n, d or Escape says no.

The question goes to the controlling terminal (/dev/tty), not stdin, because the draft
itself usually arrives on stdin through a pipe. With no terminal there is nobody to ask:
the caller refuses unless --yes was given.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

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
    """Show `card`, ask `question` on the terminal `fd`; True for yes.

    The terminal goes into cbreak mode *before* the question is written, so a key
    pressed the moment the question appears is not lost to a mode switch.
    """
    with _single_keys(fd):
        os.write(fd, (card + "\n" + question + " [Y/n] ").encode("utf-8", "replace"))
        while True:
            key = os.read(fd, 1).decode("utf-8", "replace")
            if key in YES:
                os.write(fd, b"yes\n")
                return True
            if key in NO or key == "":
                os.write(fd, b"no\n")
                return False


@contextmanager
def _single_keys(fd: int) -> Iterator[None]:
    """Read key by key without echo; a terminal that cannot do it is read as it is."""
    try:
        import termios
        import tty

        old = termios.tcgetattr(fd)
    except (ImportError, OSError):
        yield
        return
    tty.setcbreak(fd, termios.TCSANOW)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
