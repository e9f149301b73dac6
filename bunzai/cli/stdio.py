"""Standard streams that read and write everything, or fail.

CPython loses data without a word where a standard stream is a non-blocking pipe (O_NONBLOCK
belongs to the pipe, shared by every process holding it, and some event loops leave it set
on the pipes they hand a child, Bun's for one) or where Python runs unbuffered:

- stdout, non-blocking: when the pipe is full, a write takes what fits (64 KiB on Linux) and
  reports a short count. Unbuffered, the text layer drops the rest (`bunzai read` of a big
  book printed 64 KiB and exited 0); buffered, the flush at exit fails with a traceback.
- stdout, unbuffered (`python -u`, PYTHONUNBUFFERED): the text layer ignores a short count,
  as when the reader leaves in the middle of a write, and the command exits 0.
- stdin, non-blocking: a read before the writer has written raises BlockingIOError, or gives
  None or only what has arrived; `bunzai mcp` took that for the end of its input and left.

Two more conditions are mended here, each checked for at start by `bunzai.cli.entry`:

- A standard descriptor closed when bunzai starts (`bunzai apply --yes <drafts >&-`): Python
  leaves that stream None, so printing failed with a traceback, and the next file bunzai
  opened would take the descriptor. It is opened on the null device, as if redirected there.
- A stdout whose encoding is not UTF-8 (PYTHONIOENCODING=ascii, a legacy locale): JSON is then
  written with \\u escapes (`bunzai.cli.output.to_text`), still the same JSON, and text the
  encoding cannot hold (a table, a rendered prompt) with backslash escapes instead of failing.

`hold_whole_stdio` puts a layer that goes on until every byte is written, or waits until
input arrives, under the standard streams in those cases only; a blocking, buffered stream,
the usual case, is left as Python made it. A reader of stdout that has left then shows as
BrokenPipeError, which `bunzai.cli.entry` turns into its quiet exit. (Reads of a descriptor
go through `bunzai.files.read_some`, which waits the same way.)
"""

from __future__ import annotations

import io
import os
import sys

from bunzai.files import read_some


class _Raw(io.RawIOBase):
    """A raw stream over a standard descriptor it does not own (closing it leaves the descriptor open)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)


class WholeWriter(_Raw):
    """A raw writer over a descriptor whose `write` returns only when all of `data` is written."""

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        total = len(view)
        while view:
            try:
                written = os.write(self._fd, view)
            except BlockingIOError:  # a non-blocking pipe that is full: wait until it takes more
                import select

                select.select([], [self._fd], [])
                continue
            view = view[written:]
        return total


class WaitingReader(_Raw):
    """A raw reader over a descriptor whose `readinto` waits for input rather than failing."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = read_some(self._fd, len(buffer))
        memoryview(buffer).cast("B")[: len(data)] = data
        return len(data)


def open_closed_stdio() -> None:
    """Open each standard descriptor that is closed on the null device, and give Python a
    stream over it where it has none."""
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if getattr(sys, name) is None:
            setattr(sys, name, _kept(open(fd, mode, encoding="utf-8", errors="backslashreplace", closefd=False)))


def mend_stdout_encoding() -> None:
    """Where stdout cannot encode all of Unicode, write what it cannot hold as backslash escapes."""
    from bunzai.cli.output import stdout_is_utf8

    if isinstance(sys.stdout, io.TextIOWrapper) and not stdout_is_utf8():
        sys.stdout.reconfigure(errors="backslashreplace")


_KEPT: list = []  # the streams made here, as sys.__stdout__ keeps Python's: one dropped would close its layers


def hold_whole_stdio() -> None:
    """Give the standard streams a whole-writing or waiting layer where Python's own could lose data."""
    sys.stdin = _held_input(sys.stdin)
    sys.stdout = _held_output(sys.stdout, 1)
    sys.stderr = _held_output(sys.stderr, 2)


def _descriptor_state(stream, fd: int) -> bool | None:
    """Whether the stream's descriptor `fd` blocks, or None where the stream is not Python's
    own text stream over that descriptor (no stream, a closed descriptor, one a caller set)."""
    if stream is None or not isinstance(stream, io.TextIOWrapper):
        return None
    try:
        return os.get_blocking(fd) if stream.fileno() == fd else None
    except (AttributeError, OSError, ValueError):  # (os.get_blocking is missing on Windows before 3.12)
        return None


def _held_output(stream, fd: int):
    blocking = _descriptor_state(stream, fd)
    if blocking is None:
        return stream
    unbuffered = not isinstance(stream.buffer, io.BufferedWriter)
    if blocking and not unbuffered:
        return stream
    stream.flush()
    raw = WholeWriter(fd)
    layer = raw if unbuffered else io.BufferedWriter(raw)
    return _kept(
        io.TextIOWrapper(
            layer,
            encoding=stream.encoding,
            errors=stream.errors,
            line_buffering=stream.line_buffering,
            write_through=unbuffered,
        )
    )


def _held_input(stream):
    if _descriptor_state(stream, 0) is not False:
        return stream
    return _kept(io.TextIOWrapper(io.BufferedReader(WaitingReader(0)), encoding=stream.encoding, errors=stream.errors))


def _kept(stream):
    _KEPT.append(stream)
    return stream
