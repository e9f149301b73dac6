"""A one-line progress meter on stderr (count, rate, current item), only on a terminal.

Nothing is shown when stderr is not a terminal, and stdout is never touched, so pipes and
scripts see exactly the same output with or without it.
"""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, verb: str, finished: str, *, after: int = 0, every: float = 0.1) -> None:
        self.verb = verb  # "importing", shown while it runs
        self.finished = finished  # "imported", shown at the end
        self.count = 0
        self.after = after  # show nothing for runs shorter than this many items
        self.every = every  # seconds between redraws
        self.show = sys.stderr.isatty()
        self.started = time.monotonic()
        self.drawn = 0.0

    def step(self, current: str) -> None:
        self.count += 1
        if not self.show or self.count < self.after:
            return
        now = time.monotonic()
        if now - self.drawn < self.every:
            return
        self.drawn = now
        rate = self.count / max(now - self.started, 1e-6)
        from bunzai.cli.output import visible  # a file name may hold an escape sequence: never sent raw

        sys.stderr.write(f"\r{self.verb} {self.count} ({rate:,.0f}/s): {visible(current)[:50]:50}")
        sys.stderr.flush()

    def done(self) -> None:
        if self.show and self.count >= self.after and self.drawn:
            elapsed = time.monotonic() - self.started
            sys.stderr.write(f"\r{self.finished} {self.count} in {elapsed:.1f} s{' ' * 60}\n")
            sys.stderr.flush()
