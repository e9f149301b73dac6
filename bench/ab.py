"""A revision of bunzai beside the working tree, on the same files: did a change to the read path help?

Each tree is imported from its own folder: the revision's `bunzai/` unpacked by `git archive`
into a temporary folder, the working tree's own `bunzai/`, each named by PYTHONPATH. The
processes run outside the checkout, since `python -c` puts its working directory first on
sys.path and a process started in the checkout would import the checkout whatever PYTHONPATH
says; each driver prints the folder it imported bunzai from, and a run that imported the
wrong tree is refused.

- Instructions per read (valgrind callgrind, PYTHONHASHSEED=0, the driver counted with 0 and
  with N reads and differenced, as bench/instructions.py counts them) when valgrind exists:
  the figure the machine's noise cannot move (the same code counts within 0.6% in the two
  trees), so a change of a percent or two shows.
- With `--time`, CPU time as bench/compare.py takes it: ROUNDS rounds, the two trees'
  processes alternating, each timing the floor in blocks alternating with its own reads
  (compare.PAIRED_LOOP), so the machine's load moves both sides of each ratio alike. The
  figure is the median ratio to the floor, and the change is new over old.

Files: bench/compare.py's cards (Seraphina when ../shared is beside the checkout, the small
V2 card) and bench/lorebooks.py's (a 200-entry SillyTavern world, a V2 card JSON with that
book, and that world as a RisuAI lorebook, an Agnai memory book and a Marinara lorebook, as the
working tree writes them). The floor is compare.py's for a PNG card and `json.loads` for a JSON file.

    .venv/bin/python bench/ab.py REV [--time] [--only NAME,...]
    # NAME: seraphina small world book risu agnai marinara
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare  # noqa: E402 - the bench's own modules, beside this one
import instructions  # noqa: E402
import lorebooks  # noqa: E402

ROOT = compare.ROOT
ROUNDS = 5
BLOCKS = 10
# Reads per process: about a third of a second of CPU each with --time, and a few hundred
# million instructions under valgrind (a tenth of these: valgrind runs some fifty times slower).
COPIES = {"seraphina": 400, "small": 3000, "world": 40, "book": 40, "risu": 40, "agnai": 40, "marinara": 40}
# bench/lorebooks.py's other books: that world as bunzai writes it in each format, by short name.
OTHER_BOOKS = {"risu": "risu.lorebook", "agnai": "agnai.memory.json", "marinara": "marinara.lorebook"}

DRIVER = (
    r"""
import json, sys, time
reader, path, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(path, "rb").read()
"""
    + compare.PNG_FLOOR
    + r"""
if not data.startswith(b"\x89PNG"):
    floor = json.loads
import bunzai
from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.registry import all_adapters
all_adapters()
name = path.rsplit("/", 1)[-1]
parse = lambda blob: read_bytes(blob, name)
parse(data)
"""
    + compare.PAIRED_LOOP
    + """
print(json.dumps({**timing, "imported": bunzai.__file__}))
"""
)


def files(folder: Path) -> dict[str, Path]:
    """The files both trees read, by short name."""
    out = {}
    if compare.SERAPHINA.exists():
        out["seraphina"] = compare.SERAPHINA
    out["small"] = folder / "small.png"
    out["small"].write_bytes(compare.small_card())
    if lorebooks.ELDORIA.exists():
        out["world"] = folder / "world.json"
        out["world"].write_text(json.dumps(lorebooks.world(200), indent=4), encoding="utf-8")
        out["book"] = folder / "card.json"
        out["book"].write_text(json.dumps(lorebooks.card(200)), encoding="utf-8")
        for short, format_id in OTHER_BOOKS.items():
            out[short] = folder / f"{short}.json"
            out[short].write_bytes(lorebooks.written(200, format_id))
    return out


def unpack(revision: str, folder: Path) -> Path:
    """The revision's `bunzai/` package, unpacked under `folder`; the folder to put on PYTHONPATH."""
    archive = folder / "tree.tar"
    done = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", "-o", str(archive), revision, "bunzai"],
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"git archive {revision} failed: {done.stderr.strip()}")
    tree = folder / "old"
    with tarfile.open(archive) as tar:  # git's own archive; the "data" filter where Python has it (3.11.4+)
        tar.extractall(tree, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    return tree


def _run(command: list[str], tree: Path, run_in: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        cwd=run_in,  # outside the checkout: see the module's docstring
        env={**os.environ, "PYTHONPATH": str(tree), **env},
    )


def _checked(done: subprocess.CompletedProcess, tree: Path) -> dict:
    if done.returncode:
        raise SystemExit(f"the driver failed under {tree}: {done.stderr.strip()[-400:]}")
    outcome = json.loads(done.stdout.splitlines()[-1])
    if not Path(outcome["imported"]).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"the driver imported {outcome['imported']}, not the tree under {tree}")
    return outcome


def timed(tree: Path, path: Path, copies: int, run_in: Path) -> float:
    """One process's ratio of its reads' CPU time to the floor's, timed in alternating blocks."""
    done = _run([sys.executable, "-c", DRIVER, "bunzai", str(path), str(copies), str(BLOCKS)], tree, run_in)
    outcome = _checked(done, tree)
    return outcome["seconds"] / outcome["floor_seconds"]


def counted(tree: Path, path: Path, copies: int, run_in: Path) -> int:
    """Instructions of the driver process with `copies` reads (start-up and the first read included)."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", DRIVER]
    done = _run([*command, "bunzai", str(path), str(copies)], tree, run_in, PYTHONHASHSEED="0")
    _checked(done, tree)
    found = instructions.collected(done.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no instruction count: {done.stderr.strip()[-400:]}")
    return found


def per_read(tree: Path, path: Path, copies: int, run_in: Path) -> float:
    return (counted(tree, path, copies, run_in) - counted(tree, path, 0, run_in)) / copies


def _change(old: float, new: float) -> str:
    return f"{(new / old - 1) * 100:+.1f}%"


def print_timed(trees: dict[str, Path], chosen: dict[str, Path], run_in: Path, rounds: int) -> None:
    """The paired CPU ratio to the floor of each file under both `trees` (before, after), `rounds`
    processes a tree, alternating which goes first, as a table with the change after over before."""
    ratios: dict[tuple[str, str], list[float]] = {}
    before, after = trees
    for round_ in range(rounds):
        for name, path in chosen.items():
            for side in (before, after) if round_ % 2 else (after, before):
                ratios.setdefault((name, side), []).append(timed(trees[side], path, COPIES[name], run_in))
    print(
        f"\nCPU time, x floor: median (range) of {rounds} processes a tree, alternating, "
        f"each paired with its floor in {BLOCKS} blocks"
    )
    print(f"| file | {before} | {after} | change |\n|---|---|---|---|")
    for name in chosen:
        old, new = ratios[(name, before)], ratios[(name, after)]
        shown = [compare.times_floor({"ratios": side}, 0.0) for side in (old, new)]
        print(f"| {name} | {shown[0]} | {shown[1]} | {_change(statistics.median(old), statistics.median(new))} |")


def main(revision: str, time_it: bool, only: set[str]) -> int:
    with tempfile.TemporaryDirectory() as folder:
        run_in = Path(folder)
        trees = {"old": unpack(revision, run_in), "new": ROOT}
        chosen = {name: path for name, path in files(run_in).items() if not only or name in only}
        print(f"{revision} (old) beside the working tree (new)")
        if shutil.which("valgrind"):
            jobs = {(name, side): (tree, path) for name, path in chosen.items() for side, tree in trees.items()}
            with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                futures = {
                    key: pool.submit(per_read, tree, path, max(1, COPIES[key[0]] // 10), run_in)
                    for key, (tree, path) in jobs.items()
                }
                counts = {key: future.result() for key, future in futures.items()}
            print("\n| file | instructions per read, old | new | change |\n|---|---|---|---|")
            for name in chosen:
                old, new = counts[(name, "old")], counts[(name, "new")]
                print(f"| {name} | {old / 1000:,.0f}k | {new / 1000:,.0f}k | {_change(old, new)} |")
        else:
            print("\n(valgrind is not installed: no instruction counts)")
        if time_it:
            print_timed(trees, chosen, run_in, ROUNDS)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("revision", help="the git revision to compare the working tree with (HEAD, a commit ...)")
    parser.add_argument("--time", action="store_true", help="also CPU time, paired with the floor (minutes)")
    parser.add_argument("--only", default="", help="comma-separated files: " + ", ".join(COPIES))
    options = parser.parse_args()
    only = {name for name in options.only.split(",") if name}
    if only - set(COPIES):
        parser.error(f"--only names {', '.join(sorted(only - set(COPIES)))}; the files are {', '.join(COPIES)}")
    raise SystemExit(main(options.revision, options.time, only))
