"""Instructions per card parse, counted by valgrind, beside the floor: a figure the machine's noise cannot move.

`bench/compare.py` measures CPU time, which on this shared machine moves by a third from one
run to the next, so a change that saves 3% cannot be seen in it. Here each reader's parse
loop runs under `valgrind --tool=callgrind` (hash randomisation off, so every run of the
same code counts the same): the process is counted once with 0 copies and once with COPIES,
and the difference divided by COPIES is one parse, start-up and imports left out. The
readers and cards are those of bench/compare.py (its DRIVER), so the two scripts measure the
same work; peers installed in its bench environment (tavern-card, aichar) are counted too.

Instructions are not time: the floor's work is mostly tight C loops (base64, the JSON
scanner), which run more instructions per cycle than the interpreter does, so a ratio of
instructions is smaller than the ratio of CPU time that compare.py prints for the same run.
Use it to see whether a change to the read path helps, and by how much.

    .venv/bin/python bench/instructions.py [COPIES] [--write]   # default 200; --write updates docs/benchmarks.md
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare  # noqa: E402 - the bench's own module, beside this one

PEERS = ("tavern-card", "aichar")  # card-forge parses 80x slower than the floor: minutes under valgrind
BEGIN = "<!-- begin bench/instructions.py: this part is rewritten by `bench/instructions.py --write` -->"
END = "<!-- end bench/instructions.py -->"


def counted(python: Path, reader: str, card: Path, copies: int) -> int | None:
    """Instructions the DRIVER process runs with `copies` parses (None when it fails)."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", str(python), "-c", compare.DRIVER]
        + [reader, str(card), str(copies)],
        capture_output=True,
        text=True,
        env=env,
    )
    return collected(done.stderr) if done.returncode == 0 else None


def collected(stderr: str) -> int | None:
    """The instruction count callgrind prints at exit, from the process's stderr."""
    found = re.search(r"Collected : (\d+)", stderr)
    return int(found.group(1)) if found else None


def per_parse(python: Path, reader: str, card: Path, copies: int) -> float | None:
    base, loaded = counted(python, reader, card, 0), counted(python, reader, card, copies)
    return None if base is None or loaded is None else (loaded - base) / copies


def main(copies: int, write: bool) -> int:
    if shutil.which("valgrind") is None:
        print("skipped: valgrind is not installed (it counts the instructions)")
        return 0
    python, missing = compare.bench_python()
    ours = Path(sys.executable)
    readers = [("floor", ours), (compare.FAST_FLOOR, ours), ("bunzai", ours)]
    readers += [(peer, python) for peer in PEERS if python is not None and not missing.get(peer)]
    with tempfile.TemporaryDirectory() as folder:
        cards = [("Seraphina (V3 + lorebook)", compare.SERAPHINA)] if compare.SERAPHINA.exists() else []
        small = Path(folder) / "small-v2.png"
        small.write_bytes(compare.small_card())
        cards.append(("small V2 card", small))
        jobs = {(label, reader): (interpreter, card) for label, card in cards for reader, interpreter in readers}
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            futures = {
                key: pool.submit(per_parse, interpreter, key[1], card, copies if "small" in key[0] else copies // 4)
                for key, (interpreter, card) in jobs.items()
            }
            results = {key: future.result() for key, future in futures.items()}
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"Written by `bench/instructions.py` on {stamp} (valgrind callgrind, PYTHONHASHSEED=0; "
        f"{copies} parses of the small card, {copies // 4} of Seraphina).",
        "",
        "| card | reader | instructions per parse | x floor | x floor (pybase64) |",
        "|---|---|---|---|---|",
    ]
    for label, _card in cards:
        floor, fast = results[(label, "floor")], results[(label, compare.FAST_FLOOR)]
        for reader, _ in readers:
            value = results[(label, reader)]
            if value is None:
                lines.append(f"| {label} | {reader} | failed | | |")
            else:
                ratio = f"{value / floor:.2f}x" if floor else ""
                beside_fast = f"{value / fast:.2f}x" if fast else ""
                lines.append(f"| {label} | {reader} | {value / 1000:,.0f}k | {ratio} | {beside_fast} |")
    print("\n".join(lines))
    if write:
        page = compare.PAGE.read_text(encoding="utf-8")
        part = "\n".join([BEGIN, *lines, END])
        if BEGIN in page and END in page:
            page = page[: page.index(BEGIN)] + part + page[page.index(END) + len(END) :]
        else:
            page = page.rstrip() + "\n\n" + part + "\n"
        compare.PAGE.write_text(page, encoding="utf-8")
        print(f"\nwrote {compare.PAGE.relative_to(compare.ROOT)}")
    return 0


if __name__ == "__main__":
    arguments = [argument for argument in sys.argv[1:] if argument != "--write"]
    raise SystemExit(main(int(arguments[0]) if arguments else 200, "--write" in sys.argv[1:]))
