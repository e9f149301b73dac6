"""The regex lab's costs: importing the engine, a first and a warm run, the time the
catastrophic pattern takes to be refused, and `bunzai regex-lab try` end to end.

Run with `make bench` (or `.venv/bin/python bench/regexlab.py`). Prints figures; asserts nothing.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    code = "import time; t = time.perf_counter(); import _quickjs; print(time.perf_counter() - t)"
    imports = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(5)
    ]
    print(f"import _quickjs (fresh process, median of 5): {ms(statistics.median(imports))}")

    from bunzai.errors import BunzaiError
    from bunzai.regexlab.lab import try_pattern

    start = time.perf_counter()
    try_pattern("/\\*(.+?)\\*/g", "Hi *waves*", replace="<i>$1</i>")
    print(f"first try (engine context + prelude + run): {ms(time.perf_counter() - start)}")
    start = time.perf_counter()
    try_pattern("/\\*(.+?)\\*/g", "Hi *waves*" * 1000, replace="<i>$1</i>")
    print(f"warm try over 10,000 characters: {ms(time.perf_counter() - start)}")
    start = time.perf_counter()
    try:
        try_pattern("(a+)+$", "a" * 40 + "b")
    except BunzaiError as error:
        print(f"(a+)+$ on 40 a's and a b refused as {error.code} after {ms(time.perf_counter() - start)}")

    bunzai = str(Path(sys.executable).with_name("bunzai"))
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([bunzai, "regex-lab", "try", "/a+/g", "--text", "aaa"], capture_output=True, check=True)
        runs.append(time.perf_counter() - start)
    print(f"bunzai regex-lab try, whole command (median of 5): {ms(statistics.median(runs))}")


if __name__ == "__main__":
    main()
