"""Would compiling the read path reach the parse goal? The working tree beside itself compiled by Cython.

The parse goal (issue 10: each card within 3x the floor) is not reached in Python, and the
question is what compiled code would give. This script copies the working tree's `bunzai/`
twice into a temporary folder and compiles the modules a card's read runs through (READ_PATH)
in one copy with Cython, as it is (pure Python mode: no type declarations added, annotations
not used as C types, since they are hints, not contracts). Both copies read the same files to
the same pieces first: the compiled copy must give what the plain one gives, dump for dump.
Then bench/ab.py's timing runs (its driver, each process paired with the floor in blocks) for
both trees, alternating, ROUNDS processes each. The ratio is to the floor; the change is
compiled over plain.

Cython and setuptools come from the package index into a folder outside the checkout
($BUNZAI_BENCH_CYTHON or <tmp>/bunzai-bench-cython, reused); a C compiler must exist. Where
either is missing the script says so and stops (exit 0). Nothing is installed into the
project or its environment, and nothing in bunzai depends on this.

    .venv/bin/python bench/compiled.py [--rounds N] [--only NAME,...]   # NAME: seraphina small world book
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ab  # noqa: E402 - the bench's own modules, beside this one
import compare  # noqa: E402

# The modules a card's read runs its Python in (bunzai.adapters.inspect.read_bytes of a
# SillyTavern PNG or a card JSON); the model and pydantic are compiled already.
READ_PATH = (
    "adapters/common/png.py",
    "adapters/common/drift.py",
    "adapters/common/card_book.py",
    "adapters/common/card_fields.py",
    "adapters/common/card_doc.py",
    "adapters/common/fieldmap.py",
    "adapters/common/naming.py",
    "adapters/sillytavern/card_png.py",
    "adapters/sillytavern/card_twins.py",
    "adapters/sillytavern/world.py",
    "adapters/inspect.py",
    "adapters/contract.py",
    "jsondoc/reading.py",
    "jsondoc/values.py",
    "model/ids.py",
)

# Each tree's reading of a file, as JSON: the pieces' dumps and the warnings.
READER = r"""
import json, sys
from bunzai.adapters.inspect import read_bytes
import bunzai.adapters.common.png as png
path = sys.argv[1]
_, decoded = read_bytes(open(path, "rb").read(), path.rsplit("/", 1)[-1])
pieces = [piece.model_dump(mode="json") for piece in decoded.pieces]
print(json.dumps({"pieces": pieces, "warnings": decoded.warnings, "png": png.__file__}))
"""


def tools_folder() -> Path | str:
    """Where Cython is importable from, or why it is not."""
    folder = Path(os.environ.get("BUNZAI_BENCH_CYTHON") or Path(tempfile.gettempdir()) / "bunzai-bench-cython")
    if not (folder / "Cython").is_dir():
        done = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(folder), "cython", "setuptools"],
            capture_output=True,
            text=True,
        )
        if done.returncode:
            return f"pip could not install Cython: {done.stderr.strip()[-300:]}"
    return folder


def copy_tree(into: Path) -> Path:
    shutil.copytree(
        compare.ROOT / "bunzai", into / "bunzai", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c")
    )
    return into


def compile_tree(tree: Path, tools: Path) -> str | None:
    """Compile READ_PATH in `tree` in place; None, or what went wrong."""
    sources = [str(tree / "bunzai" / module) for module in READ_PATH]
    done = subprocess.run(
        [sys.executable, "-m", "Cython.Build.Cythonize", "-i", "-3", "-q", "-X", "annotation_typing=False"]
        + ["-j", str(os.cpu_count() or 1), *sources],
        capture_output=True,
        text=True,
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tools)},
    )
    if done.returncode:
        return done.stderr.strip()[-600:]
    built = {path.name.split(".")[0] for path in (tree / "bunzai").rglob("*.so")}
    missing = [module for module in READ_PATH if Path(module).stem not in built]
    return f"not compiled: {', '.join(missing)}" if missing else None


def reading(tree: Path, path: Path, run_in: Path) -> dict:
    done = ab._run([sys.executable, "-c", READER, str(path)], tree, run_in)
    if done.returncode:
        raise SystemExit(f"reading {path.name} under {tree} failed: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout)


def main(rounds: int, only: set[str]) -> int:
    if not (shutil.which("cc") or shutil.which("gcc")):
        print("skipped: no C compiler (cc, gcc) to build Cython's output with")
        return 0
    tools = tools_folder()
    if isinstance(tools, str):
        print(f"skipped: {tools}")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        run_in = Path(folder)
        trees = {"plain": copy_tree(run_in / "plain"), "compiled": copy_tree(run_in / "compiled")}
        problem = compile_tree(trees["compiled"], tools)
        if problem:
            print(f"Cython could not compile the read path: {problem}")
            return 1
        chosen = {name: path for name, path in ab.files(run_in).items() if not only or name in only}
        for name, path in chosen.items():
            plain, built = (reading(trees[side], path, run_in) for side in ("plain", "compiled"))
            if not built["png"].endswith(".so"):
                raise SystemExit(f"the compiled tree imported {built['png']}, not its compiled module")
            if {**plain, "png": ""} != {**built, "png": ""}:
                raise SystemExit(f"the compiled tree reads {name} differently from the plain one")
        print(f"The working tree beside itself with {len(READ_PATH)} read-path modules compiled by Cython")
        print("(each file read to the same pieces and warnings by both trees first)")
        ab.print_timed(trees, chosen, run_in, rounds)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ab.ROUNDS, help="processes a tree for each file")
    parser.add_argument("--only", default="", help="comma-separated files: " + ", ".join(ab.COPIES))
    options = parser.parse_args()
    only = {name for name in options.only.split(",") if name}
    if only - set(ab.COPIES):
        parser.error(f"--only names {', '.join(sorted(only - set(ab.COPIES)))}; the files are {', '.join(ab.COPIES)}")
    raise SystemExit(main(options.rounds, only))
