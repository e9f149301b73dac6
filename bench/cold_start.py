"""Cold start: CPU and wall time of bunzai's hot commands next to `python -c pass`, in one run.

Run with `make bench` (or `.venv/bin/python bench/cold_start.py [RUNS]`). Compiles bunzai's
bytecode first (`compileall`, as an installed wheel would have it), then runs each command
RUNS times, interleaved so that a noisy neighbour slows all of them alike, and prints the
median CPU time (user + system of the child, from getrusage), the median wall time and the
ratio of CPU time to `python -c pass` run by the same interpreter. Goal (issue 10): `read`,
`list` and `search` at most 3x `python -c pass` (CPU).

Two environments, their commands interleaved in each round: the development one (`make
install`, bunzai in editable mode) and bunzai installed from a wheel of this checkout into an
environment of its own (see `bench/installed.py`): the editable finder makes the first one's
`python -c pass` import modules that bunzai would otherwise pay for, so the installed one is
what a user's start-up costs. `--editable-only` skips building it.
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


def cases(python: str, bunzai_cmd: str) -> dict[str, list[str]]:
    return {
        "python -c pass": [python, "-c", "pass"],
        "bunzai --version": [bunzai_cmd, "--version"],
        "bunzai read character/ada-lovelace": [bunzai_cmd, "read", "character/ada-lovelace"],
        "bunzai list": [bunzai_cmd, "list"],
        "bunzai search lovelace": [bunzai_cmd, "search", "lovelace"],
        "bunzai formats": [bunzai_cmd, "formats"],
        "bunzai --help": [bunzai_cmd, "--help"],
        "bunzai read --help": [bunzai_cmd, "read", "--help"],
        "bunzai search --help": [bunzai_cmd, "search", "--help"],
        "bunzai apply --help (through Typer)": [bunzai_cmd, "apply", "--help"],
        "bunzai changes (through Typer)": [bunzai_cmd, "changes"],
    }


def main(runs: int, installed: bool = True) -> None:
    import bunzai

    compileall.compile_dir(Path(bunzai.__file__).parent, quiet=1)
    bunzai_cmd = str(Path(sys.executable).with_name("bunzai"))
    with tempfile.TemporaryDirectory() as tmp:
        environments = {"editable (make install)": Path(sys.executable).parent}
        if installed:
            from installed import installed_bin

            environments["installed from a wheel"] = installed_bin(Path(tmp) / "installed")
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
        runs_of = {
            (where, label): cmd
            for where, bin_dir in environments.items()
            for label, cmd in cases(str(bin_dir / "python"), str(bin_dir / "bunzai")).items()
        }
        for cmd in runs_of.values():  # warm the page cache and the bytecode
            timed(cmd, env)
        samples: dict[tuple[str, str], list[tuple[float, float]]] = {key: [] for key in runs_of}
        for _ in range(runs):
            for key, cmd in runs_of.items():
                samples[key].append(timed(cmd, env))
        for where in environments:
            floor = statistics.median(cpu for cpu, _ in samples[(where, "python -c pass")])
            print(f"\nbunzai {where}")
            print(f"{'command':40} {'cpu s':>7} {'wall s':>7} {'cpu / python -c pass':>21}   (median of {runs} runs)")
            for (at, label), rows in samples.items():
                if at != where:
                    continue
                cpu = statistics.median(c for c, _ in rows)
                wall = statistics.median(w for _, w in rows)
                print(f"{label:40} {cpu:7.3f} {wall:7.3f} {cpu / floor:20.1f}x")


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--editable-only"]
    main(int(arguments[0]) if arguments else RUNS, installed="--editable-only" not in sys.argv[1:])
