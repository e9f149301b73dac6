"""`graveyard list` at library size: 2,000 buried pieces, beside a floor, before and after.

Writes N graveyard entries (character pieces of 4, 16 and 64 KB in turn, as canonical JSON,
under `Graveyard/character/<id>@<stamp>.json`) into a fresh studio, waits until they are older
than the listing's racy margin (`limits.INDEX_RACY_SECONDS`: younger entries are read every
time, see `store.graveyard._Revisions`), then times `list_graveyard` in processes of their own:

- the floor: `os.scandir` of every kind folder of the graveyard and a `stat` of each file,
  the least a listing that notices a hand edit can do;
- `warm`: a listing with `.bunzai/graveyard.json` as the previous listing left it;
- `cold`: the same with that file deleted first, so every entry is read and hashed (the first
  listing of a graveyard, or any listing before the file existed);
- with `--rev REV` (default HEAD), REV's `bunzai/` (unpacked by `git archive`, as bench/ab.py
  does) listing the same graveyard: the code before the change, when REV predates it.

Each process times the floor and its listing in BLOCKS blocks, alternating, so the machine's
load moves both alike; it prints the least CPU time of each and the median of the blocks'
ratios. Processes run outside the checkout (see bench/ab.py) and print where they imported
bunzai from.

    .venv/bin/python bench/graveyard.py [--rev REV] [--no-rev] [N]   # default N: 2000
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ab  # noqa: E402 - the bench's own modules, beside this one

ROOT = ab.ROOT
BLOCKS = 10
SIZES_KB = (4, 16, 64)

DRIVER = r"""
import json, os, statistics, sys, time
studio_folder, mode, blocks = sys.argv[1], sys.argv[2], int(sys.argv[3])
import bunzai
from bunzai.model import KIND_NAMES
from bunzai.store.graveyard import list_graveyard
from bunzai.store.studio import Studio

studio = Studio(studio_folder)
cache = os.path.join(studio_folder, ".bunzai", "graveyard.json")

def floor():
    rows = []
    for kind in KIND_NAMES:
        try:
            listing = os.scandir(os.path.join(studio_folder, "Graveyard", kind))
        except FileNotFoundError:
            continue
        with listing:
            rows.extend((entry.name, entry.stat(follow_symlinks=False).st_size) for entry in listing)
    return rows

def listing():
    if mode == "cold" and os.path.exists(cache):
        os.unlink(cache)
    return list_graveyard(studio)

count = len(listing())  # warm: leaves the cache as a listing does
spent = {"floor": [], "list": []}
for block in range(blocks):
    for name, work in (("floor", floor), ("list", listing)) if block % 2 else (("list", listing), ("floor", floor)):
        start = time.process_time()
        work()
        spent[name].append(time.process_time() - start)
ratios = [a / b for a, b in zip(spent["list"], spent["floor"])]
print(json.dumps({
    "imported": bunzai.__file__, "rows": count, "floor": min(spent["floor"]), "list": min(spent["list"]),
    "ratio": statistics.median(ratios), "low": min(ratios), "high": max(ratios),
}))
"""


def piece_bytes(index: int) -> bytes:
    """A canonical character piece of about SIZES_KB[index % 3] KB."""
    size = SIZES_KB[index % len(SIZES_KB)] * 1024
    words = ("lantern harbour storm logbook keeper northern coast beacon ") * (size // 60)
    data = {
        "body": {"description": words[:size], "personality": "patient"},
        "id": f"keeper-{index}",
        "kind": "character",
        "name": f"Keeper {index}",
        "original": None,
        "profiles": {},
    }
    return (json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def make_studio(folder: Path, count: int) -> int:
    """A studio whose graveyard holds `count` entries; their total size in bytes."""
    (folder / "bunzai.toml").write_text("")
    (folder / ".bunzai").mkdir()
    graves = folder / "Graveyard" / "character"
    graves.mkdir(parents=True)
    total = 0
    for index in range(count):
        raw = piece_bytes(index)
        stamp = f"2026{1 + index % 12:02d}{1 + index % 28:02d}T{index % 24:02d}0000{index:06d}Z"
        (graves / f"keeper-{index}@{stamp}.json").write_bytes(raw)
        total += len(raw)
    return total


def run(tree: Path, studio: Path, mode: str, run_in: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(studio), mode, str(BLOCKS)],
        capture_output=True,
        text=True,
        cwd=run_in,  # outside the checkout: see bench/ab.py
        env={**os.environ, "PYTHONPATH": str(tree)},
    )
    return ab._checked(done, tree)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", nargs="?", type=int, default=2000)
    parser.add_argument("--rev", default="HEAD", help="the revision to time beside the working tree")
    parser.add_argument("--no-rev", action="store_true", help="time the working tree only")
    args = parser.parse_args()
    from bunzai import limits

    with tempfile.TemporaryDirectory(prefix="bunzai-bench-graveyard-") as temp:
        temp_path = Path(temp)
        studio = temp_path / "studio"
        studio.mkdir()
        total = make_studio(studio, args.count)
        time.sleep(limits.INDEX_RACY_SECONDS + 0.5)  # see the module's docstring
        cases = [("now, warm", ROOT, "warm"), ("now, cold", ROOT, "cold")]
        if not args.no_rev:
            cases.append((f"{args.rev}", ab.unpack(args.rev, temp_path), "cold"))
        print(f"{args.count} graveyard entries, {total / 1e6:.1f} MB; CPU seconds, least of {BLOCKS} runs each")
        print()
        print("| listing | rows | floor s | list s | x floor (median, range) |")
        print("|---|---|---|---|---|")
        for label, tree, mode in cases:
            got = run(tree, studio, mode, temp_path)
            print(
                f"| {label} | {got['rows']} | {got['floor']:.4f} | {got['list']:.4f} | "
                f"{got['ratio']:.1f}x ({got['low']:.1f}-{got['high']:.1f}) |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
