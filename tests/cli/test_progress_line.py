"""The progress meter on a terminal: a file name reaches it escaped, never as raw control text."""

from __future__ import annotations

import io

from bunzai.cli import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_file_name_with_an_escape_sequence_is_shown_escaped(monkeypatch) -> None:
    screen = Terminal()
    monkeypatch.setattr(progress.sys, "stderr", screen)
    meter = progress.Progress("importing", "imported", every=0.0)
    meter.step("\x1b]0;owned\x07card\u202e.png")
    shown = screen.getvalue()
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert "\\u001b]0;owned\\u0007card\\u202e.png" in shown
