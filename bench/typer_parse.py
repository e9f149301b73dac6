"""Typer's argument parsing beside itself: the kept Typer (below 0.29) and Typer 0.29, in one run.

pyproject.toml keeps Typer below 0.29, which coerces every parameter through a pydantic
TypeAdapter. This script shows what that choice is worth: it makes two environments of
this checkout that differ only in Typer (each a fresh venv holding one Typer release from
the package index and the development environment's pydantic release, the development
environment's other packages reached through a `.pth` line, `installed.borrow_dependencies`,
and bunzai by PYTHONPATH), then runs commands that go through Typer in both, ROUNDS times
interleaved, and prints each one's least CPU time (user + system of the child) and their ratio.

    .venv/bin/python bench/typer_parse.py [ROUNDS]      # default 11; installs Typer 0.29 from the package index
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from installed import borrow_dependencies  # noqa: E402 - the bench's own module, beside this one

ROOT = Path(__file__).resolve().parents[1]
RELEASES = {"kept": "typer>=0.12,<0.29", "0.29": "typer==0.29.*"}
ROUNDS = 11
PROGRAM = "import sys; from bunzai.cli.entry import main; sys.argv[0] = 'bunzai'; main()"


def environment(folder: Path, requirement: str) -> Path:
    """A venv holding `requirement`, with the development environment's packages after its own.

    Typer 0.29 requires pydantic, which pip would then install in the venv too: it is pinned to
    the development environment's release, so that the two environments differ in Typer alone."""
    from importlib.metadata import version

    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    python = folder / "bin" / "python"
    pinned = f"pydantic=={version('pydantic')}"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", requirement, pinned], check=True)
    borrow_dependencies(python)
    return python


def cpu(python: Path, argv: list[str], env: dict) -> float:
    """CPU seconds (user + system) of `python ARGV`, which must succeed."""
    child = subprocess.Popen([str(python), *argv], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{python} {' '.join(argv[2:] or argv)} failed")
    return usage.ru_utime + usage.ru_stime


def main(rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pythons = {label: environment(work / label, requirement) for label, requirement in RELEASES.items()}
        env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=tmp, BUNZAI_STUDIO=str(work / "studio"), COLUMNS="80")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        versions = {
            label: subprocess.run(
                [str(python), "-c", "import typer; print(typer.__version__)"], env=env, capture_output=True, text=True
            ).stdout.strip()
            for label, python in pythons.items()
        }
        first = pythons["kept"]
        subprocess.run(
            [str(first), "-c", PROGRAM, "init", env["BUNZAI_STUDIO"]], env=env, check=True, stdout=subprocess.DEVNULL
        )
        bunzai = ["-c", PROGRAM]
        cases = {
            "python -c pass": ["-c", "pass"],
            "bunzai changes": [*bunzai, "changes"],
            "bunzai graveyard list": [*bunzai, "graveyard", "list"],
            "bunzai docs search studio": [*bunzai, "docs", "search", "studio"],
            "bunzai apply --help": [*bunzai, "apply", "--help"],
            "bunzai create character (a model)": [*bunzai, "create", "character", "--input", '{"name": "Ada"}'],
        }
        best: dict[tuple[str, str], float] = {}
        for round_number in range(rounds + 1):  # round 0 warms the bytecode and the page cache, untimed
            for case, argv in cases.items():
                for label, python in pythons.items():
                    spent = cpu(python, argv, env)
                    if round_number:
                        key = (case, label)
                        best[key] = min(best.get(key, spent), spent)
        print(f"least CPU of {rounds} rounds; Typer {versions['kept']} (kept) and {versions['0.29']}")
        print(f"{'command':38} {'kept':>7} {'0.29':>7} {'0.29 / kept':>12}")
        for case in cases:
            kept, newer = best[(case, "kept")], best[(case, "0.29")]
            print(f"{case:38} {kept:7.3f} {newer:7.3f} {newer / kept:11.2f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS)
