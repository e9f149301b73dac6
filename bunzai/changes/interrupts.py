"""Ctrl-C in a command: the SIGINT handler the CLI installs (`cli.entry`), which raises
`errors.Interrupted`, and `shielded`, a section it waits for.

Typer turns a KeyboardInterrupt into a bare exit 130, so the handler raises an exception of
its own, which reaches the CLI's one error handler and its JSON document. Inside `shielded`
(apply committing a batch window and handing out its receipts) the interruption waits until
the section ends: a write that lands is reported, and the hint "nothing was written after the
interruption" holds. Outside, it is raised at once, so a command blocked on its input stops.
"""

from __future__ import annotations

from contextlib import contextmanager

from bunzai.errors import Interrupted

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator


_state = {"depth": 0, "pending": False}


def on_sigint(signum: int, frame: object) -> None:
    """The SIGINT handler: raise now, or once the shielded section ends."""
    if _state["depth"]:
        _state["pending"] = True
        return
    raise Interrupted


@contextmanager
def shielded() -> Iterator[None]:
    """A section Ctrl-C does not cut: an interruption during it is raised as it ends."""
    _state["depth"] += 1
    try:
        yield
    finally:
        _state["depth"] -= 1
    if not _state["depth"] and _state["pending"]:
        _state["pending"] = False
        raise Interrupted
