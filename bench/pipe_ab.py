"""A revision beside the working tree through `bunzai import DIR` and `bunzai apply --yes`: did a change help?

bench/library.py times the whole pipe against a floor of fsyncs, which the disk moves more
than the code; this script takes the CPU time (user + system) of each side of the pipe, for a
revision's `bunzai/` and the working tree's, on the same N cards (bench/library.py's), ROUNDS
runs a tree, alternating which goes first. Each tree is imported from its own folder by
PYTHONPATH, in processes started outside the checkout (see bench/ab.py), and a run that
imported another tree is refused. Import writes its drafts to a file, which apply then reads,
so each side is timed alone; the script says whether the two trees' drafts are the same, byte
for byte, and refuses a run where apply did not apply every card.

    .venv/bin/python bench/pipe_ab.py REV [--cards N] [--rounds K]     # default: 2000 cards, 4 rounds
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ab  # noqa: E402 - the bench's own modules, beside this one
import library  # noqa: E402

WHERE = "import bunzai; print(bunzai.__file__)"


def _env(tree: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(tree)}


def check_tree(tree: Path, run_in: Path) -> None:
    done = subprocess.run([sys.executable, "-c", WHERE], capture_output=True, text=True, cwd=run_in, env=_env(tree))
    imported = Path(done.stdout.strip()).resolve()
    if done.returncode or not imported.is_relative_to(tree.resolve()):
        raise SystemExit(f"a process given {tree} imported {done.stdout.strip() or done.stderr.strip()[-300:]}")


def _timed(command: list, tree: Path, run_in: Path, **streams) -> tuple[float, subprocess.CompletedProcess]:
    """(CPU s, the finished process) of `command` run with `tree`'s bunzai; refused when it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=run_in, env=_env(tree), stderr=subprocess.PIPE, **streams)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"bunzai {command[3]} failed under {tree}: {done.stderr.decode()[-400:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done


def one_run(tree: Path, cards: Path, work: Path, side: str, count: int) -> tuple[float, float, bytes]:
    """(import CPU s, apply CPU s, the drafts) of one pass through a fresh studio."""
    studio, drafts = work / f"studio-{side}", work / f"drafts-{side}.jsonl"
    shutil.rmtree(studio, ignore_errors=True)
    bunzai = [sys.executable, "-m", "bunzai"]
    _timed([*bunzai, "init", str(studio)], tree, work, stdout=subprocess.DEVNULL)
    with drafts.open("w") as out:
        imported, _ = _timed([*bunzai, "import", str(cards), "--studio", str(studio)], tree, work, stdout=out)
    with drafts.open() as given:
        applied, done = _timed(
            [*bunzai, "apply", "--yes", "--studio", str(studio)], tree, work, stdin=given, stdout=subprocess.PIPE
        )
    if done.stdout.count(b'"status":"applied"') != count:
        raise SystemExit(f"apply under {tree} did not apply all {count} cards")
    return imported, applied, drafts.read_bytes()


def main(revision: str, count: int, rounds: int) -> int:
    with tempfile.TemporaryDirectory(prefix="bunzai-pipe-ab-") as folder:
        work = Path(folder)
        trees = {"old": ab.unpack(revision, work), "new": ab.ROOT}
        for tree in trees.values():
            check_tree(tree, work)
        cards = work / "cards"
        library.generate(cards, count)
        times: dict[tuple[str, str], list[float]] = {}
        drafts: dict[str, bytes] = {}
        for round_ in range(rounds):
            for side in ("old", "new") if round_ % 2 else ("new", "old"):
                imported, applied, drafts[side] = one_run(trees[side], cards, work, side, count)
                times.setdefault((side, "import"), []).append(imported)
                times.setdefault((side, "apply"), []).append(applied)
        print(f"{revision} (old) beside the working tree (new): {count:,} cards, {rounds} runs a tree, alternating")
        print("\n| side | old, least (median) CPU s | new | change of the least |\n|---|---|---|---|")
        for part in ("import", "apply"):
            old, new = times[("old", part)], times[("new", part)]
            print(
                f"| {part} | {min(old):.2f} ({statistics.median(old):.2f}) | "
                f"{min(new):.2f} ({statistics.median(new):.2f}) | {ab._change(min(old), min(new))} |"
            )
        print(f"\ndrafts the same, byte for byte: {'yes' if drafts['old'] == drafts['new'] else 'no'}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("revision", help="the git revision to compare the working tree with (HEAD, a commit ...)")
    parser.add_argument("--cards", type=int, default=2000, help="cards through the pipe (default 2000)")
    parser.add_argument("--rounds", type=int, default=4, help="runs a tree (default 4)")
    options = parser.parse_args()
    raise SystemExit(main(options.revision, options.cards, options.rounds))
