"""A card's parse time block by block beside the floor's: how far the machine's state moves the ratio.

Each process reads the card READS times and then runs the floor (bench/compare.py's) READS
times, BLOCKS times over, and prints each block's microseconds per read as `bunzai/floor`,
then bunzai's fastest block over the floor's block that ran right after it. On a shared machine
the interpreter-bound reader moves between levels while the floor, two C loops, moves
little (docs/benchmarks.md, "How much of the small card's ratio is the machine").

    .venv/bin/python bench/levels.py [--card small|seraphina] [--processes 6] [--python PATH]
                                     [--blocks 16] [--reads 300]

`--python` runs the processes under another interpreter of the same minor version, with
this checkout and the bench environment's packages on its path (how Debian's own Python
was compared with the bench's).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare  # noqa: E402 - the bench's own module, beside this one

ROOT = Path(__file__).resolve().parents[1]
BLOCKS, READS = 16, 300

DRIVER = (
    r"""
import sys, time
path, blocks, reads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
"""
    + compare.PNG_FLOOR
    + r"""
from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.registry import all_adapters
all_adapters()
data = open(path, "rb").read()
read_bytes(data, "card.png"), floor(data)
cells, best = [], (float("inf"), 1.0)
for _ in range(blocks):
    start = time.process_time()
    for _ in range(reads):
        read_bytes(bytes(data), "card.png")
    middle = time.process_time()
    for _ in range(reads):
        floor(bytes(data))
    end = time.process_time()
    mine, its = (middle - start) / reads * 1e6, (end - middle) / reads * 1e6
    best = min(best, (mine, its))
    cells.append(f"{mine:.0f}/{its:.0f}")
print(" ".join(cells), f"| its fastest block {best[0] / best[1]:.2f}x the floor's beside it")
"""
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--card", choices=("small", "seraphina"), default="small")
    parser.add_argument("--processes", type=int, default=6)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--blocks", type=int, default=BLOCKS)
    parser.add_argument("--reads", type=int, default=READS)
    args = parser.parse_args()
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)
    if args.python != sys.executable:  # another build of Python: borrow this environment's packages
        site = next(path for path in sys.path if path.endswith("site-packages"))
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), site])
    with tempfile.TemporaryDirectory() as folder:
        if args.card == "seraphina":
            if not compare.SERAPHINA.exists():
                print(f"skipped: {compare.SERAPHINA} is absent (../shared/corpus is not beside this checkout)")
                return 0
            card = compare.SERAPHINA
        else:
            card = Path(folder) / "small-v2.png"
            card.write_bytes(compare.small_card())
        print(f"{args.card}: microseconds per read, bunzai/floor, {args.blocks} blocks of {args.reads} reads a process")
        for _ in range(args.processes):
            done = subprocess.run(
                [args.python, "-c", DRIVER, str(card), str(args.blocks), str(args.reads)],
                capture_output=True,
                text=True,
                env=env,
                cwd=folder,
            )
            print(done.stdout.strip() if done.returncode == 0 else f"failed: {done.stderr.strip()[-300:]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
