"""Cold start: wall time of `bunzai --version` and `bunzai read` next to `python -c pass`.

Run with `make bench` (or `.venv/bin/python bench/cold_start.py`). Prints the median and the
best of N runs for each command; the goal for `--version` is under 0.12 s on a 2-core machine.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 15


def timed(cmd: list[str], env: dict) -> list[float]:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    bunzai = str(Path(sys.executable).with_name("bunzai"))
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, HOME=tmp, BUNZAI_STUDIO=str(Path(tmp) / "studio"))
        subprocess.run([bunzai, "init", env["BUNZAI_STUDIO"]], env=env, check=True, stdout=subprocess.DEVNULL)
        draft = subprocess.run([bunzai, "create", "character", "--input", '{"name": "Ada Lovelace"}'], env=env, check=True, capture_output=True).stdout
        subprocess.run([bunzai, "apply", "--yes"], input=draft, env=env, check=True, stdout=subprocess.DEVNULL)
        cases = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "bunzai --version": [bunzai, "--version"],
            "bunzai --help": [bunzai, "--help"],
            "bunzai read character/ada-lovelace": [bunzai, "read", "character/ada-lovelace"],
        }
        print(f"{'command':40} {'median s':>9} {'best s':>8}   ({RUNS} runs each)")
        for label, cmd in cases.items():
            times = timed(cmd, env)
            print(f"{label:40} {statistics.median(times):9.3f} {min(times):8.3f}")


if __name__ == "__main__":
    main()
