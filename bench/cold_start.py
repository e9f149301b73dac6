"""Cold start: CPU and wall time of bunzai's hot commands next to `python -c pass`, in one run.

Run with `make bench` (or `.venv/bin/python bench/cold_start.py [RUNS]`). Compiles bunzai's
bytecode first (`compileall`, as an installed wheel would have it), then runs each command
RUNS times, interleaved so that a noisy neighbour slows all of them alike, and prints the
median CPU time (user + system of the child, from getrusage), the median wall time and the
ratio of CPU time to `python -c pass` run by the same interpreter. Goal (issue 10): `read`,
`list` and `search` at most 3x `python -c pass` (CPU).
"""

from __future__ import annotations

import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 21


def timed(cmd: list[str], env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main(runs: int) -> None:
    import bunzai

    compileall.compile_dir(Path(bunzai.__file__).parent, quiet=1)
    bunzai_cmd = str(Path(sys.executable).with_name("bunzai"))
    with tempfile.TemporaryDirectory() as tmp:
        # A wide terminal (as with no terminal): the width at which the help texts are kept.
        env = dict(os.environ, HOME=tmp, BUNZAI_STUDIO=str(Path(tmp) / "studio"), COLUMNS="80")
        subprocess.run([bunzai_cmd, "init", env["BUNZAI_STUDIO"]], env=env, check=True, stdout=subprocess.DEVNULL)
        draft = subprocess.run(
            [bunzai_cmd, "create", "character", "--input", '{"name": "Ada Lovelace"}'],
            env=env,
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run([bunzai_cmd, "apply", "--yes"], input=draft, env=env, check=True, stdout=subprocess.DEVNULL)
        cases = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "bunzai --version": [bunzai_cmd, "--version"],
            "bunzai read character/ada-lovelace": [bunzai_cmd, "read", "character/ada-lovelace"],
            "bunzai list": [bunzai_cmd, "list"],
            "bunzai search lovelace": [bunzai_cmd, "search", "lovelace"],
            "bunzai formats": [bunzai_cmd, "formats"],
            "bunzai --help": [bunzai_cmd, "--help"],
            "bunzai read --help": [bunzai_cmd, "read", "--help"],
            "bunzai search --help": [bunzai_cmd, "search", "--help"],
            "bunzai apply --help (through Typer)": [bunzai_cmd, "apply", "--help"],
        }
        for cmd in cases.values():  # warm the page cache and the bytecode
            timed(cmd, env)
        samples: dict[str, list[tuple[float, float]]] = {label: [] for label in cases}
        for _ in range(runs):
            for label, cmd in cases.items():
                samples[label].append(timed(cmd, env))
        floor = statistics.median(cpu for cpu, _ in samples["python -c pass"])
        print(f"{'command':40} {'cpu s':>7} {'wall s':>7} {'cpu / python -c pass':>21}   (median of {runs} runs)")
        for label, rows in samples.items():
            cpu = statistics.median(c for c, _ in rows)
            wall = statistics.median(w for _, w in rows)
            print(f"{label:40} {cpu:7.3f} {wall:7.3f} {cpu / floor:20.1f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else RUNS)
